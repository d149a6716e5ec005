package dashboard

import (
	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"github.com/feedbackhq/feedback/shared/feedback"
)

// A new alert can also be heard and seen outside the page: a short beep
// made with WebAudio (no audio file) and a browser notification. Both
// are off until the person turns them on, on this device (local
// storage); the notification permission is asked on that click only.

// Keys of the choices in the browser's local storage.
const (
	soundKey  = "alerts.sound"
	noticeKey = "alerts.notifications"
)

// alertPrefs are the choices of this device.
type alertPrefs struct {
	sound, notices bool
}

// readAlertPrefs returns the choices of this device.
func readAlertPrefs(ctx app.Context) alertPrefs {
	var p alertPrefs
	_ = ctx.LocalStorage().Get(soundKey, &p.sound)
	_ = ctx.LocalStorage().Get(noticeKey, &p.notices)
	return p
}

// beeper is the audio context of the beep, made on the click that turns
// the sound on: browsers let a page play sound only after a gesture.
var beeper app.Value

// startBeeper makes (or resumes) the audio context; it reports whether
// the browser has one.
func startBeeper() bool {
	if beeper != nil && beeper.Truthy() {
		beeper.Call("resume")
		return true
	}
	ac := app.Window().Get("AudioContext")
	if !ac.Truthy() {
		return false
	}
	beeper = ac.New()
	return true
}

// beep plays two short tones, 880 then 660 Hz, a fifth of the volume.
func beep() {
	if beeper == nil || !beeper.Truthy() {
		return
	}
	t := beeper.Get("currentTime").Float()
	for i, hz := range []float64{880, 660} {
		osc, gain := beeper.Call("createOscillator"), beeper.Call("createGain")
		osc.Get("frequency").Set("value", hz)
		gain.Get("gain").Set("value", 0.2)
		osc.Call("connect", gain)
		gain.Call("connect", beeper.Get("destination"))
		start := t + float64(i)*0.2
		osc.Call("start", start)
		osc.Call("stop", start+0.15)
	}
}

// notificationState is the browser's notification permission:
// "granted", "denied", "default", or "" when it has no notifications.
func notificationState() string {
	n := app.Window().Get("Notification")
	if !n.Truthy() {
		return ""
	}
	return n.Get("permission").String()
}

// askNotifications asks the browser for the notification permission and
// calls done with its answer on the UI goroutine.
func askNotifications(ctx app.Context, done func(ctx app.Context, state string)) {
	n := app.Window().Get("Notification")
	if !n.Truthy() {
		done(ctx, "")
		return
	}
	var answered app.Func
	answered = app.FuncOf(func(this app.Value, args []app.Value) any {
		state := args[0].String()
		answered.Release()
		ctx.Dispatch(func(ctx app.Context) { done(ctx, state) })
		return nil
	})
	n.Call("requestPermission").Call("then", answered)
}

// announceAlert beeps and shows a notification for a new alert, as this
// device's choices say.
func announceAlert(ctx app.Context, a *feedback.Alert) {
	p := readAlertPrefs(ctx)
	if p.sound {
		beep()
	}
	if p.notices && notificationState() == "granted" {
		opts := map[string]any{"body": a.Summary, "tag": "alert-" + a.ID}
		app.Window().Get("Notification").New("Alert: "+a.RuleName, opts)
	}
}
