package dashboard

import (
	"context"
	"time"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"github.com/feedbackhq/feedback/shared/feedback"
)

// securityPage is Settings > Security: the active sessions, which the
// user can revoke. Shell is the frame it is shown in, told when the
// session turns out to be gone.
type securityPage struct {
	app.Compo
	requests
	Shell *Shell

	sessions sessionList
}

// sessionList is the state of Settings > Security > Active sessions.
type sessionList struct {
	items   []feedback.Session
	loaded  bool   // items holds an answer
	loading bool   // a request for the list is under way
	busy    string // the id of the session being revoked
	asking  bool   // whether to revoke this device's session is asked
	notice  string // what the last action did, announced
	problem string // why the last request failed
}

// OnMount loads the sessions.
func (p *securityPage) OnMount(ctx app.Context) {
	p.mount(ctx)
	p.loadSessions()
}

// OnNav loads the sessions again when the person navigates to the page
// it is on.
func (p *securityPage) OnNav(ctx app.Context) { p.loadSessions() }

// OnDismount cancels the page's requests.
func (p *securityPage) OnDismount() { p.dismount() }

// loadSessions asks for the user's sessions. The list on screen stays
// until the answer replaces it.
func (p *securityPage) loadSessions() {
	if p.sessions.loading {
		return
	}
	p.sessions.loading = true
	p.async(func(c context.Context) func(app.Context) {
		items, err := getSessions(c)
		return func(ctx app.Context) { p.gotSessions(items, err) }
	})
}

func (p *securityPage) gotSessions(items []feedback.Session, err error) {
	p.sessions.loading = false
	switch {
	case p.Shell.gone(err):
	case err != nil:
		p.sessions.problem = "The sessions could not be loaded: " + err.Error()
	default:
		p.sessions.items, p.sessions.loaded, p.sessions.problem = currentFirst(items), true, ""
	}
}

// currentFirst puts this device's session first, keeping the server's
// order (newest first) for the others.
func currentFirst(items []feedback.Session) []feedback.Session {
	out := make([]feedback.Session, 0, len(items))
	for _, current := range []bool{true, false} {
		for _, s := range items {
			if s.Current == current {
				out = append(out, s)
			}
		}
	}
	return out
}

// askRevoke revokes another device's session at once, and asks before
// revoking this device's, which signs the user out here.
func (p *securityPage) askRevoke(s feedback.Session) {
	if !s.Current {
		p.revoke(s)
		return
	}
	p.sessions.asking = true
	focusLater(p.ui, "confirm-signout-q") // the button is gone: the page's context runs the focus

}

// revoke ends a session with DELETE /sessions/{id}, then reloads the
// list. Revoking this device's session signs the user out here.
func (p *securityPage) revoke(s feedback.Session) {
	if p.sessions.busy != "" {
		return
	}
	p.sessions.busy, p.sessions.asking, p.sessions.notice, p.sessions.problem = s.ID, false, "", ""
	p.async(func(c context.Context) func(app.Context) {
		err := revokeSession(c, s.ID)
		return func(ctx app.Context) { p.revoked(ctx, s, err) }
	})
}

func (p *securityPage) revoked(ctx app.Context, s feedback.Session, err error) {
	p.sessions.busy = ""
	switch {
	case isSignedOut(err) || (err == nil && s.Current):
		p.Shell.endSession("You revoked the session of this device, so you are signed out here.")
		return
	case hasStatus(err, 404):
		p.sessions.notice = "That session had already ended."
	case err != nil:
		p.sessions.problem = "The session was not revoked: " + err.Error()
		focusLater(ctx, "sessions-problem")
		return
	default:
		p.sessions.notice = "Revoked the session of " + deviceName(s.UserAgent) + " (" + s.IP + ")."
	}
	p.sessions.items = without(p.sessions.items, s.ID)
	p.loadSessions()
	focusLater(ctx, statusID) // the pressed button is gone: keep the focus near it
}

// without returns items but the session id. (A loop: the slices
// package's generic functions would add 17 KB to the wasm.)
func without(items []feedback.Session, id string) []feedback.Session {
	out := make([]feedback.Session, 0, len(items))
	for _, s := range items {
		if s.ID != id {
			out = append(out, s)
		}
	}
	return out
}

// Render renders the page.
func (p *securityPage) Render() app.UI {
	l := &p.sessions
	return app.Section().Body(
		title("Security settings"),
		app.P().Text("These browsers and devices are signed in to your account. Revoke any you do not recognise: it is signed out at once."),
		app.P().ID(statusID).Role("status").TabIndex(-1).Text(l.statusText()),
		app.If(l.problem != "", func() app.UI {
			return app.Div().Class("errors").Role("alert").Body(
				app.P().ID("sessions-problem").TabIndex(-1).Text(l.problem),
				app.Button().ID("sessions-retry").Type("button").Text("Reload the sessions").
					OnClick(func(ctx app.Context, e app.Event) { p.sessions.problem = ""; p.loadSessions() }),
			)
		}),
		app.If(l.loaded, func() app.UI { return p.renderSessionTable() }),
	)
}

func (l *sessionList) statusText() string {
	switch {
	case l.notice != "":
		return l.notice
	case !l.loaded && l.loading:
		return "Loading the sessions…"
	case l.loaded && len(l.items) == 0:
		return "No session is active."
	}
	return ""
}

func (p *securityPage) renderSessionTable() app.UI {
	items := p.sessions.items
	return app.Table().ID("sessions").Class("sessions").Body(
		app.Caption().Text("Active sessions"),
		app.THead().Body(app.Tr().Body(
			app.Th().Scope("col").Text("Device"),
			app.Th().Scope("col").Text("IP address"),
			app.Th().Scope("col").Text("Signed in"),
			app.Th().Scope("col").Text("Last active"),
			app.Th().Scope("col").Text("Action"),
		)),
		app.TBody().Body(app.Range(items).Slice(func(i int) app.UI { return p.renderSession(items[i]) })),
	)
}

// renderSession is one row: the device names the row, and its button
// says which session it revokes.
func (p *securityPage) renderSession(s feedback.Session) app.UI {
	device := deviceName(s.UserAgent)
	label := "Revoke the session of " + device + ", " + s.IP
	row := app.Tr()
	if s.Current {
		row = row.Class("current")
		label = "Revoke the session of this device and sign out"
	}
	b := disabledIf(app.Button().ID("revoke-"+s.ID).Type("button").Class("revoke").Text("Revoke").Aria("label", label),
		p.sessions.busy != "").OnClick(func(ctx app.Context, e app.Event) { p.askRevoke(s) }, app.EventScope(s.ID))
	action := app.UI(b)
	if s.Current && p.sessions.asking {
		action = confirmBox("confirm-signout", "Revoke the session of this device? You will be signed out here.", s.ID,
			"Revoke and sign out", func() { p.revoke(s) },
			func() { p.sessions.asking = false; focusLater(p.ui, "revoke-"+s.ID) })
	}
	return row.Body(
		app.Th().Scope("row").Body(
			app.Text(device),
			app.If(s.Current, func() app.UI {
				return app.Span().Class("this-device").Text(" · This device")
			}),
		),
		app.Td().DataSet("label", "IP address").Text(s.IP),
		app.Td().DataSet("label", "Signed in").Body(timeOf(s.CreatedAt.Time)),
		app.Td().DataSet("label", "Last active").Body(timeOf(s.LastSeenAt.Time)),
		app.Td().Body(action),
	)
}

// timeOf shows t in the browser's time zone. (A span, not a <time>:
// each HTML element type go-app renders adds about 13 KB to the wasm,
// and the app uses no <time> elsewhere.)
func timeOf(t time.Time) app.UI {
	return app.Span().Text(t.Local().Format("2 Jan 2006, 15:04"))
}
