package kiosk

import (
	"context"
	"sync/atomic"
	"time"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"github.com/feedbackhq/feedback/app/components"
	"github.com/feedbackhq/feedback/app/visitor"
	"github.com/feedbackhq/feedback/shared/feedback"
	"github.com/feedbackhq/feedback/shared/i18n"
)

// mode is what the kiosk shows.
type mode int

const (
	loading mode = iota // before the wasm runs: the prerendered shell
	pairing             // not paired yet: the pairing form
	attract             // idle: invites the next visitor
	form                // a visitor is filling the form
	thanks              // after a submission, for ThanksFor
	pin                 // asking for the exit PIN
	admin               // after the PIN: status, sync, unpair
)

// Page is the kiosk, at /kiosk.
type Page struct {
	app.Compo

	mode        mode
	settings    *Settings
	formID      string        // the submission id of the form on screen
	form        *visitor.Page // the mounted form of formID
	lastSubmit  time.Time
	lastInput   time.Time
	pending     int
	dead        int
	message     string // an error or notice for the current screen
	updateReady bool   // a new version waits for the next idle moment
	cancel      context.CancelFunc
	stopWatch   func()
	credential  atomic.Value  // string: the settings' credential, for the heartbeat goroutine
	beatNow     chan struct{} // asks the heartbeat goroutine for a beat now
	ctx         app.Context   // the mounted component's context, for goroutines' dispatches
}

// OnMount starts the kiosk in the browser: settings, wake lock, the
// queue's state, the heartbeat and the idle clock.
func (k *Page) OnMount(ctx app.Context) {
	if device == nil {
		return
	}
	k.ctx = ctx
	k.beatNow = make(chan struct{}, 1)
	k.setSettings(device.Load())
	k.mode = pairing
	if k.settings.Paired() {
		k.mode = attract
	}
	device.KeepAwake()
	k.stopWatch = device.Watch(func() { ctx.Dispatch(func(app.Context) { k.readQueue() }) })
	k.readQueue()
	c, cancel := context.WithCancel(context.Background())
	k.cancel = cancel
	go k.tick(c, ctx)
	go k.beat(c, ctx)
}

// OnDismount stops the kiosk's goroutines and listeners.
func (k *Page) OnDismount() {
	if k.cancel != nil {
		k.cancel()
	}
	if k.stopWatch != nil {
		k.stopWatch()
	}
}

// OnAppUpdate reloads into a new version, but only when nobody is using
// the kiosk; the queue is in IndexedDB and survives the reload.
func (k *Page) OnAppUpdate(ctx app.Context) {
	k.updateReady = true
	k.reloadIfIdle(ctx)
}

func (k *Page) reloadIfIdle(ctx app.Context) {
	if k.updateReady && (k.mode == attract || k.mode == pairing) {
		ctx.Reload()
	}
}

func (k *Page) readQueue() {
	k.pending, k.dead = device.Queue()
}

func (k *Page) lang() string {
	if k.settings != nil && k.settings.Lang != "" {
		return k.settings.Lang
	}
	return i18n.Default
}

func (k *Page) t(key string) string { return i18n.T(k.lang(), key) }

// Render renders the current screen.
func (k *Page) Render() app.UI {
	return app.Div().ID("kiosk").Class("kiosk").
		On("pointerdown", k.touched).On("keydown", k.touched).On("input", k.touched).Body(
		k.screen(),
		app.If(k.mode == attract || k.mode == form || k.mode == thanks, func() app.UI { return k.footer() }),
	)
}

func (k *Page) screen() app.UI {
	switch k.mode {
	case pairing:
		return k.renderPairing()
	case attract:
		return k.renderAttract()
	case form:
		return k.renderForm()
	case thanks:
		return k.renderThanks()
	case pin:
		return k.renderPIN()
	case admin:
		return k.renderAdmin()
	}
	return components.KioskLoading()
}

// touched notes that someone is using the kiosk.
func (k *Page) touched(ctx app.Context, e app.Event) {
	k.lastInput = time.Now()
	ctx.PreventUpdate()
}

// tick resets an abandoned form and runs the thank-you timer.
func (k *Page) tick(c context.Context, ctx app.Context) {
	t := time.NewTicker(time.Second)
	defer t.Stop()
	for {
		select {
		case <-c.Done():
			return
		case now := <-t.C:
			ctx.Dispatch(func(ctx app.Context) { k.onTick(ctx, now) })
		}
	}
}

func (k *Page) onTick(ctx app.Context, now time.Time) {
	reset, idle, _ := k.settings.Timing()
	switch {
	case k.mode == thanks && now.Sub(k.lastSubmit) >= reset:
		k.toAttract(ctx)
	case (k.mode == form || k.mode == pin || k.mode == admin) && now.Sub(k.lastInput) >= idle:
		k.toAttract(ctx) // discards a half-filled form
	default:
		ctx.PreventUpdate()
	}
}

func (k *Page) toAttract(ctx app.Context) {
	k.mode, k.formID, k.message = attract, "", ""
	k.reloadIfIdle(ctx)
}

// start shows a fresh form to the next visitor.
func (k *Page) start(ctx app.Context, e app.Event) {
	k.mode, k.formID, k.message, k.lastInput = form, feedback.NewID(), "", time.Now()
}

// beat reports the kiosk alive every minute and looks for app updates.
func (k *Page) beat(c context.Context, ctx app.Context) {
	t := time.NewTicker(HeartbeatFor)
	defer t.Stop()
	last := time.Now()
	for {
		k.heartbeat(c)
		select {
		case <-c.Done():
			return
		case <-t.C:
		case <-k.beatNow: // just paired: report at once
		}
		if time.Since(last) >= UpdateEvery {
			last = time.Now()
			app.TryUpdate()
		}
	}
}

func (k *Page) heartbeat(c context.Context) {
	cred, _ := k.credential.Load().(string)
	if cred == "" {
		return
	}
	pending, _ := device.Queue()
	_ = device.Heartbeat(c, cred, feedback.Heartbeat{QueueDepth: pending, AppVersion: device.Version()})
}

// setSettings replaces the settings on the UI goroutine and publishes the
// credential to the heartbeat.
func (k *Page) setSettings(s *Settings) {
	k.settings = s
	cred := ""
	if s.Paired() {
		cred = s.Credential
	}
	if old, _ := k.credential.Swap(cred).(string); old != cred && cred != "" && k.beatNow != nil {
		select {
		case k.beatNow <- struct{}{}:
		default:
		}
	}
}
