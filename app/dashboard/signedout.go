package dashboard

import (
	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// renderSignedOut invites the user to sign in and come back here.
func (s *Shell) renderSignedOut() app.UI {
	why := "Sign in to see your security settings."
	if s.slug != "" {
		why = "Sign in to open the dashboard of the workspace " + s.slug + "."
	}
	return app.Section().Class("message").Body(
		title("Sign in"),
		app.If(s.reason != "", func() app.UI { return app.P().ID("signed-out").Role("status").Text(s.reason) }),
		app.P().Text(why),
		app.P().Body(app.A().ID("sign-in").Class("button primary").Href("/auth/login?return_to="+s.returnPath()).
			Text("Sign in").OnClick(leaveApp)),
	)
}

// returnPath is where the sign-in comes back to: this page, built from
// the parts of the path that the route's pattern checked.
func (s *Shell) returnPath() string {
	if s.slug == "" {
		return SecurityPath
	}
	return overviewPath(s.slug)
}

// leaveApp lets the browser follow a link to a page the app does not
// route, such as /auth/login: go-app handles every same-origin click on
// window and would show its not-found page instead. The handler runs
// before the click reaches window (GOAPP.md, section 1).
func leaveApp(ctx app.Context, e app.Event) {
	e.Call("stopPropagation")
}
