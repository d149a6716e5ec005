package kiosk

import (
	"context"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"github.com/feedbackhq/feedback/shared/feedback"
)

func TestPIN(t *testing.T) {
	var s Settings
	s.SetPIN("1234", "salt")
	if !s.CheckPIN("1234") || s.CheckPIN("1235") || s.CheckPIN("") {
		t.Error("CheckPIN accepts a wrong PIN or refuses the right one")
	}
	if strings.Contains(s.Encode(), "1234") {
		t.Error("the stored settings contain the PIN")
	}
	for pin, want := range map[string]bool{"1234": true, "12345678": true, "123": false, "123456789": false, "12a4": false, "": false} {
		if ValidPIN(pin) != want {
			t.Errorf("ValidPIN(%q) = %v", pin, !want)
		}
	}
}

func TestSettingsRoundTrip(t *testing.T) {
	s := &Settings{Credential: "fbkk_x", Lang: "fr", Kiosk: feedback.Kiosk{Name: "Door", Timing: feedback.KioskTiming{ResetSeconds: 2, IdleSeconds: 9, IntervalSeconds: 1}}}
	got := DecodeSettings(s.Encode())
	if got == nil || got.Credential != "fbkk_x" || got.Kiosk.Timing != s.Kiosk.Timing || !got.Paired() {
		t.Errorf("round trip: %+v", got)
	}
	if DecodeSettings("") != nil || DecodeSettings("{") != nil {
		t.Error("garbage decodes to settings")
	}
	if reset, idle, interval := (&Settings{}).Timing(); reset != 5*time.Second || idle != 30*time.Second || interval != 3*time.Second {
		t.Errorf("default timing %v %v %v", reset, idle, interval)
	}
	if reset, idle, interval := got.Timing(); reset != 2*time.Second || idle != 9*time.Second || interval != time.Second {
		t.Errorf("timing %v %v %v", reset, idle, interval)
	}
}

// fakeDevice records what the kiosk asks of the device.
type fakeDevice struct {
	mu       sync.Mutex
	queued   []string
	settings *Settings
}

func (d *fakeDevice) Load() *Settings { return d.settings }
func (d *fakeDevice) Save(s *Settings) {
	d.settings = s
}
func (d *fakeDevice) Pair(context.Context, string) (*feedback.Pairing, error) { return nil, nil }
func (d *fakeDevice) Config(context.Context, string) (*feedback.Kiosk, *feedback.FormView, error) {
	return nil, nil, nil
}
func (d *fakeDevice) Heartbeat(context.Context, string, feedback.Heartbeat) error { return nil }
func (d *fakeDevice) Enqueue(_ context.Context, id string, _ []byte) error {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.queued = append(d.queued, id)
	return nil
}
func (d *fakeDevice) Queue() (int, int)            { return len(d.queued), 0 }
func (d *fakeDevice) Watch(func()) (cancel func()) { return func() {} }
func (d *fakeDevice) Sync()                        {}
func (d *fakeDevice) KeepAwake()                   {}
func (d *fakeDevice) Version() string              { return "test" }
func (d *fakeDevice) count() int                   { d.mu.Lock(); defer d.mu.Unlock(); return len(d.queued) }

func pairedKiosk(t *testing.T) (*Page, *fakeDevice) {
	t.Helper()
	d := &fakeDevice{settings: &Settings{Credential: "fbkk_x", Form: feedback.FormView{Form: feedback.FormHygiene, LocationName: "Lobby"},
		Kiosk: feedback.Kiosk{Name: "Door", Timing: feedback.KioskTiming{ResetSeconds: 2, IdleSeconds: 10, IntervalSeconds: 3}}}}
	d.settings.SetPIN("2468", "s")
	old := device
	UseDevice(d)
	t.Cleanup(func() { UseDevice(old) })
	k := &Page{mode: attract}
	k.setSettings(d.settings)
	return k, d
}

// html mounts a fresh copy of k's screen state and returns its HTML (a
// component mounts once, so each screen gets its own copy).
func html(t *testing.T, k *Page) string {
	t.Helper()
	k = &Page{mode: k.mode, settings: k.settings, formID: k.formID}
	e := app.NewTestEngine()
	if err := e.Load(k); err != nil {
		t.Fatal(err)
	}
	e.ConsumeAll()
	return app.HTMLString(k)
}

func TestKioskScreens(t *testing.T) {
	k, _ := pairedKiosk(t)
	if h := html(t, &Page{}); !strings.Contains(h, "Starting the kiosk") {
		t.Errorf("the prerendered kiosk is not the loading screen:\n%s", h)
	}
	if h := html(t, k); !strings.Contains(h, `id="kiosk-start"`) || !strings.Contains(h, "Lobby") {
		t.Errorf("attract screen:\n%s", h)
	}
	k.mode, k.formID = form, feedback.NewID()
	if h := html(t, k); !strings.Contains(h, "How clean is it here?") || strings.Contains(h, `href="/q/`) {
		t.Errorf("the kiosk form shows poster links or no form:\n%s", h)
	}
	k.mode = pairing
	if h := html(t, k); !strings.Contains(h, `id="pair-code"`) || !strings.Contains(h, `id="pair-pin"`) {
		t.Errorf("pairing screen:\n%s", h)
	}
}

// TestStaffButtonOnlyForVisitors: the way to the staff screens is shown
// on the visitor's screens, not on the staff screens themselves.
func TestStaffButtonOnlyForVisitors(t *testing.T) {
	k, _ := pairedKiosk(t)
	for m, want := range map[mode]bool{attract: true, form: true, thanks: true, pin: false, admin: false} {
		k.mode, k.formID = m, feedback.NewID()
		if got := strings.Contains(html(t, k), `id="kiosk-exit"`); got != want {
			t.Errorf("screen %d shows the Staff button: %v, want %v", m, got, want)
		}
	}
}

// TestKioskRhythm walks the kiosk through a visitor: a submission, the
// thank-you screen, the automatic reset, the interval against mashing,
// and the idle reset that discards a half-filled form.
func TestKioskRhythm(t *testing.T) {
	k, d := pairedKiosk(t)
	var ctx app.Context
	k.mode, k.formID, k.lastInput = form, feedback.NewID(), time.Now()
	k.submitted(k.formID, []byte(`{}`))
	if k.mode != thanks {
		t.Fatalf("mode after a submission = %v; want thanks", k.mode)
	}
	waitFor(t, func() bool { return d.count() == 1 })
	k.onTick(ctx, k.lastSubmit.Add(time.Second))
	if k.mode != thanks {
		t.Error("the thank-you screen left before its 2 s")
	}
	k.onTick(ctx, k.lastSubmit.Add(2*time.Second))
	if k.mode != attract || k.formID != "" {
		t.Errorf("after 2 s: mode %v, form %q; want the attract screen", k.mode, k.formID)
	}
	k.mode, k.formID = form, feedback.NewID()
	k.submitted(k.formID, []byte(`{}`)) // within 3 s of the last: ignored
	if k.mode != form || d.count() != 1 {
		t.Errorf("a press within the interval was taken: mode %v, %d queued", k.mode, d.count())
	}
	k.lastInput = time.Now()
	k.onTick(ctx, k.lastInput.Add(9*time.Second))
	if k.mode != form {
		t.Error("the form was reset before the idle time")
	}
	k.onTick(ctx, k.lastInput.Add(10*time.Second))
	if k.mode != attract || d.count() != 1 {
		t.Errorf("idle reset: mode %v, %d queued; want attract and nothing new", k.mode, d.count())
	}
}

func TestKioskPIN(t *testing.T) {
	k, _ := pairedKiosk(t)
	k.mode = pin
	if !k.settings.CheckPIN("2468") || k.settings.CheckPIN("0000") {
		t.Fatal("the kiosk's PIN does not check")
	}
	k.pending = 2
	var ctx app.Context
	k.unpair(ctx, app.Event{})
	if !k.settings.Paired() || !strings.Contains(k.message, "2") {
		t.Errorf("unpaired with 2 submissions waiting: %+v, %q", k.settings, k.message)
	}
	k.pending = 0
	k.unpair(ctx, app.Event{})
	if k.settings.Paired() || k.mode != pairing {
		t.Errorf("unpair with nothing waiting left mode %v, paired %v", k.mode, k.settings.Paired())
	}
}

func waitFor(t *testing.T, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatal("condition not met in 5 s")
		}
		time.Sleep(5 * time.Millisecond)
	}
}
