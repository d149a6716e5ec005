//go:build js && wasm

package pwa

import (
	"context"
	"encoding/json"
	"sync"
	"sync/atomic"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"github.com/feedbackhq/feedback/app/browser"
	"github.com/feedbackhq/feedback/app/kiosk"
	"github.com/feedbackhq/feedback/app/offline"
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
	var p feedback.Pairing
	return &p, call(ctx, "POST", "/kiosk/pair", "", feedback.PairRequest{Code: code}, &p)
}

// Config fetches the kiosk and its form.
func (d *device) Config(ctx context.Context, credential string) (*feedback.Kiosk, *feedback.FormView, error) {
	var c struct {
		Kiosk feedback.Kiosk    `json:"kiosk"`
		Form  feedback.FormView `json:"form"`
	}
	err := call(ctx, "GET", "/kiosk/config", credential, nil, &c)
	return &c.Kiosk, &c.Form, err
}

// Heartbeat reports the kiosk alive.
func (d *device) Heartbeat(ctx context.Context, credential string, hb feedback.Heartbeat) error {
	return call(ctx, "POST", "/kiosk/heartbeat", credential, hb, nil)
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

// call sends a JSON request with an optional kiosk credential and decodes
// a 2xx answer into out, or the problem into the error.
func call(ctx context.Context, method, url, credential string, in, out any) error {
	headers := map[string]string{"Accept": "application/json"}
	var body []byte
	if in != nil {
		body, _ = json.Marshal(in)
		headers["Content-Type"] = "application/json"
	}
	if credential != "" {
		headers["Authorization"] = "Bearer " + credential
	}
	res, err := browser.Fetch{}.Send(ctx, method, url, headers, body)
	if err != nil {
		return feedback.Errorf(feedback.EUnavailable, "The service cannot be reached.")
	}
	if res.Status >= 300 {
		var p feedback.Problem
		if json.Unmarshal(res.Body, &p) == nil && p.Code != "" {
			return &feedback.Error{Code: p.Code, Message: p.Detail, Params: p.InvalidParams}
		}
		return feedback.Errorf(feedback.EUnavailable, "The service answered %d.", res.Status)
	}
	if out != nil && len(res.Body) > 0 {
		return json.Unmarshal(res.Body, out)
	}
	return nil
}
