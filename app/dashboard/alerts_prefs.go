package dashboard

import (
	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// setSound turns the beep of new alerts on or off on this device; a
// beep on turning it on lets the person hear it.
func (p *alertsPage) setSound(ctx app.Context, on bool) {
	if on && !startBeeper() {
		p.prefMsg = "This browser cannot play sounds."
		on = false
	}
	p.prefs.sound = on
	_ = ctx.LocalStorage().Set(soundKey, on)
	if on {
		beep()
		p.prefMsg = "A sound plays when an alert is raised while the dashboard is open."
	} else if p.prefMsg != "This browser cannot play sounds." {
		p.prefMsg = "No sound plays for new alerts."
	}
}

// setNotices turns the browser notifications of new alerts on or off on
// this device, asking the browser's permission first.
func (p *alertsPage) setNotices(ctx app.Context, on bool) {
	if !on {
		p.prefs.notices = false
		_ = ctx.LocalStorage().Set(noticeKey, false)
		p.prefMsg = "No browser notification is shown for new alerts."
		return
	}
	askNotifications(ctx, func(ctx app.Context, state string) {
		switch state {
		case "granted":
			p.prefs.notices = true
			p.prefMsg = "The browser shows a notification when an alert is raised while the dashboard is open."
		case "":
			p.prefMsg = "This browser cannot show notifications."
		default:
			p.prefMsg = "The browser did not allow notifications. Allow them in the site's settings, then try again."
		}
		_ = ctx.LocalStorage().Set(noticeKey, p.prefs.notices)
		if !p.prefs.notices {
			if el := app.Window().GetElementByID("alert-notify"); el.Truthy() {
				el.Set("checked", false)
			}
		}
	})
}
