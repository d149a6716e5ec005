package dashboard

import (
	"strconv"
	"strings"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"github.com/feedbackhq/feedback/shared/feedback"
)

// renderHeader shows the workspace, the user and the way out once the
// user is known, and only the product's name before. The workspace's
// name is written once: beside the product's, or as the switcher's
// choice when there is a switcher.
func (s *Shell) renderHeader() app.UI {
	if s.status != ready {
		return app.Header().Class("dash-header").Body(app.P().Class("dash-brand").Text("Feedback"))
	}
	ws := s.workspace()
	return app.Header().Class("dash-header").Body(
		app.A().Class("skip-link").Href("#main").Text("Skip to the page"),
		app.P().Class("dash-brand").Body(
			app.Text("Feedback"),
			app.If(ws != nil && !s.switches(), func() app.UI {
				return app.Span().Body(app.Text(" · "), app.Span().ID("workspace-name").Class("dash-workspace").Text(ws.Name))
			}),
		),
		s.renderSwitcher(ws),
		app.P().Class("dash-user").Body(app.Text("Signed in as "), app.Span().ID("user-email").Class("dash-email").Text(s.me.Email)),
		s.renderSignOut(),
		s.renderMenuToggle(),
	)
}

// renderMenuToggle shows and hides the navigation on a phone, where it
// would otherwise take a third of the screen above every page; a wider
// screen shows the navigation (above the page, or beside it from 64rem)
// and no button.
func (s *Shell) renderMenuToggle() app.UI {
	text := "Menu"
	if s.menuOpen {
		text = "Close the menu"
	}
	return app.Button().ID("menu-toggle").Type("button").Class("menu-toggle").Text(text).
		Aria("expanded", strconv.FormatBool(s.menuOpen)).Aria("controls", "dash-nav").
		OnClick(func(ctx app.Context, e app.Event) { s.menuOpen = !s.menuOpen })
}

// navGroups are the navigation's groups, in its order.
var navGroups = []string{"Feedback", "Places", "Settings"}

// renderNav is the navigation: the routes' links by group, the current
// page marked; beside the page on a wide screen, above it on a phone.
// It is rendered in the browser only, once the user is known (a
// workspace's pages have links only when the user can open it).
func (s *Shell) renderNav() app.UI {
	if s.status != ready {
		return app.If(false, nil)
	}
	ws := s.workspace()
	var groups []app.UI
	for _, g := range navGroups {
		links := s.navLinks(ws, g)
		if len(links) == 0 {
			continue
		}
		id := "nav-group-" + strings.ToLower(g)
		groups = append(groups, app.Div().Class("nav-group").Body(
			app.P().ID(id).Class("nav-group-name").Text(g),
			app.Ul().Aria("labelledby", id).Body(links...),
		))
	}
	nav := app.Nav().ID("dash-nav").Class("dash-nav").Aria("label", "Dashboard")
	if s.menuOpen {
		nav = nav.Class("open")
	}
	return nav.Body(groups...)
}

// navLinks are the links of the group's routes.
func (s *Shell) navLinks(ws *feedback.Membership, group string) []app.UI {
	var links []app.UI
	for _, r := range routes {
		if r.group != group || r.nav == "" || (r.owner && !s.me.PlatformOwner) { // nav "": a page reached from another
			continue
		}
		href := "/settings/" + r.path
		if r.workspace {
			if ws == nil {
				continue
			}
			href = overviewPath(ws.Slug) + r.path
		}
		a := app.A().ID("nav-"+r.name).Href(href).Body(app.Text(r.nav), s.navBadge(r))
		if s.route == r {
			a = a.Aria("current", "page")
		}
		links = append(links, app.Li().Body(a))
	}
	return links
}

// renderSignOut is a form that posts to /auth/logout. The browser
// submits it itself, with or without the wasm: the answer sends it on to
// the identity provider, which ends its own session too, and back to the
// signed-out page (a fetch could not take the browser there).
func (s *Shell) renderSignOut() app.UI {
	b := app.Button().ID("sign-out").Type("submit").Text("Sign out")
	if s.leaving {
		b = b.Disabled(true)
	}
	return app.Form().ID("sign-out-form").Method("post").Action("/auth/logout").OnSubmit(s.signOut).Body(b)
}

// signOut lets the browser submit the sign-out form once, and marks the
// button while the browser leaves the page.
func (s *Shell) signOut(ctx app.Context, e app.Event) {
	if s.leaving {
		e.PreventDefault()
		return
	}
	s.leaving = true
}

// navBadge is the count of unresolved alerts beside the link to the
// alerts, once known and when there are any.
func (s *Shell) navBadge(r *route) app.UI {
	n := s.alerts.open
	return app.If(r.name == "alerts" && s.alerts.known && n > 0, func() app.UI {
		return app.Span().ID("alerts-badge").Class("badge").Body(
			app.Text(strconv.Itoa(n)),
			app.Span().Class("sr-only").Text(" unresolved"),
		)
	})
}
