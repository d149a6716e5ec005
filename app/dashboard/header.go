package dashboard

import (
	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// renderHeader shows the workspace, the navigation, the user and the way
// out once the user is known, and only the product's name before.
func (p *Page) renderHeader() app.UI {
	if p.status != ready {
		return app.Header().Class("dash-header").Body(app.P().Class("dash-brand").Text("Feedback"))
	}
	ws := p.workspace()
	return app.Header().Class("dash-header").Body(
		app.P().Class("dash-brand").Body(
			app.Text("Feedback"),
			app.If(ws != nil, func() app.UI {
				return app.Span().Body(app.Text(" · "), app.Span().ID("workspace-name").Class("dash-workspace").Text(ws.Name))
			}),
		),
		app.Nav().Aria("label", "Dashboard").Body(app.Ul().Body(
			app.If(ws != nil, func() app.UI {
				return navLink("nav-overview", overviewPath(ws.Slug), "Overview", p.slug != "" && p.section == overview)
			}),
			navLink("nav-security", SecurityPath, "Security settings", p.section == security),
		)),
		app.P().Class("dash-user").Body(app.Text("Signed in as "), app.Span().ID("user-email").Class("dash-email").Text(p.me.Email)),
		p.renderSignOut(),
	)
}

// navLink is a link of the navigation, marked when it is the current
// page. It is rendered in the browser only (the header needs the user).
func navLink(id, href, text string, current bool) app.UI {
	a := app.A().ID(id).Href(href).Text(text)
	if current {
		a = a.Aria("current", "page")
	}
	return app.Li().Body(a)
}

// renderSignOut is a form that posts to /auth/logout. The browser
// submits it itself, with or without the wasm: the answer sends it on to
// the identity provider, which ends its own session too, and back to the
// signed-out page (a fetch could not take the browser there).
func (p *Page) renderSignOut() app.UI {
	b := app.Button().ID("sign-out").Type("submit").Text("Sign out")
	if p.leaving {
		b = b.Disabled(true)
	}
	return app.Form().ID("sign-out-form").Method("post").Action("/auth/logout").OnSubmit(p.signOut).Body(b)
}

// signOut lets the browser submit the sign-out form once, and marks the
// button while the browser leaves the page.
func (p *Page) signOut(ctx app.Context, e app.Event) {
	if p.leaving {
		e.PreventDefault()
		return
	}
	p.leaving = true
}
