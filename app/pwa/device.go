//go:build js && wasm

package pwa

import (
	"context"
	"errors"
	"sync"
	"sync/atomic"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"github.com/feedbackhq/feedback/app/browser"
	"github.com/feedbackhq/feedback/app/kiosk"
	"github.com/feedbackhq/feedback/app/offline"
	"github.com/feedbackhq/feedback/shared/client"
	"github.com/feedbackhq/feedback/shared/feedback"
)

// settingsKey names the kiosk's settings in localStorage.
const settingsKey = "feedback.kiosk"

// device is the kiosk's view of the browser and the service.
type device struct {
	outbox *outbox
	cred   atomic.Value // string
	wake   sync.Once
}

var _ kiosk.Device = (*device)(nil)

func (d *device) credential() string {
	c, _ := d.cred.Load().(string)
	return c
}

// Load reads the settings from localStorage.
func (d *device) Load() *kiosk.Settings {
	v := app.Window().Get("localStorage").Call("getItem", settingsKey)
	s := &kiosk.Settings{}
	if v.Truthy() {
		if got := kiosk.DecodeSettings(v.String()); got != nil {
			s = got
		}
	}
	d.cred.Store(s.Credential)
	return s
}

// Save writes the settings to localStorage.
func (d *device) Save(s *kiosk.Settings) {
	app.Window().Get("localStorage").Call("setItem", settingsKey, s.Encode())
	d.cred.Store(s.Credential)
	d.Sync()
}

// Pair consumes a pairing code.
func (d *device) Pair(ctx context.Context, code string) (*feedback.Pairing, error) {
	p, err := client.New("", "").Pair(ctx, code)
	return p, deviceError(err)
}

// Config fetches the kiosk and its form.
func (d *device) Config(ctx context.Context, credential string) (*feedback.Kiosk, *feedback.FormView, error) {
	c, err := client.New("", credential).KioskConfig(ctx)
	return &c.Kiosk, &c.Form, deviceError(err)
}

// Heartbeat reports the kiosk alive.
func (d *device) Heartbeat(ctx context.Context, credential string, hb feedback.Heartbeat) error {
	return deviceError(client.New("", credential).Heartbeat(ctx, hb))
}

// Enqueue stores a kiosk submission for the next sync.
func (d *device) Enqueue(ctx context.Context, id string, body []byte) error {
	<-d.outbox.ready
	return d.outbox.q.Add(ctx, offline.Item{ID: id, Kind: offline.KindKiosk, Body: body})
}

// Queue counts the kiosk's waiting and refused submissions.
func (d *device) Queue() (pending, dead int) { return d.outbox.count(offline.KindKiosk) }

// Watch follows the queue.
func (d *device) Watch(f func()) (cancel func()) { return d.outbox.Watch(f) }

// Sync asks the queue for a flush now.
func (d *device) Sync() {
	if d.outbox.q != nil {
		d.outbox.q.Poke()
	}
}

// KeepAwake holds a screen wake lock for as long as the app runs.
func (d *device) KeepAwake() {
	d.wake.Do(func() { go browser.WakeLock(context.Background()) })
}

// Version is the build id of the running app.
func (d *device) Version() string { return app.Getenv("GOAPP_VERSION") }

// deviceError turns the client's error into one the kiosk can show
// (feedback.ErrorMessage): the problem's code and detail, or "cannot be
// reached" for a network error.
func deviceError(err error) error {
	var p *feedback.Problem
	switch {
	case err == nil || errors.Is(err, client.ErrDecode):
		return err
	case errors.As(err, &p) && p.Type != client.BlankType: // the service's own problem
		return &feedback.Error{Code: p.Code, Message: p.Detail, Params: p.InvalidParams}
	case errors.As(err, &p): // an answer that is no problem: a proxy's, say
		return feedback.Errorf(feedback.EUnavailable, "The service answered %d.", p.Status)
	}
	return feedback.Errorf(feedback.EUnavailable, "The service cannot be reached.")
}
