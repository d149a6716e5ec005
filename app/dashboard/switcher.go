package dashboard

import (
	"context"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"github.com/feedbackhq/feedback/shared/feedback"
)

// renderSwitcher lets a user who can open more than one workspace (a
// platform owner opens every one) go to another: a select and a button,
// so that moving through the choices with the keyboard changes nothing
// until the person says so (WCAG 3.2.2).
func (s *Shell) renderSwitcher(ws *feedback.Membership) app.UI {
	if !s.switches() {
		return app.If(false, nil)
	}
	list := s.me.Workspaces
	current := ""
	if ws != nil {
		current = ws.Slug
	}
	return app.Form().ID("workspace-switch").Class("ws-switch").OnSubmit(s.switchWorkspace).Body(
		app.Label().For("workspace-select").Text("Workspace"),
		app.Select().ID("workspace-select").Body(
			app.Range(list).Slice(func(i int) app.UI {
				o := app.Option().Value(list[i].Slug).Text(list[i].Name)
				if list[i].Slug == current {
					o = o.Selected(true)
				}
				return o
			}),
		),
		app.Button().ID("workspace-open").Type("submit").Text("Open").Aria("label", "Open the workspace chosen"),
	)
}

// switches reports whether the header has the switcher: the user opens
// more than one workspace.
func (s *Shell) switches() bool { return len(s.me.Workspaces) >= 2 }

// switchWorkspace opens the overview of the workspace chosen.
func (s *Shell) switchWorkspace(ctx app.Context, e app.Event) {
	e.PreventDefault()
	slug := app.Window().GetElementByID("workspace-select").Get("value").String()
	for _, m := range s.me.Workspaces {
		if m.Slug == slug { // only a slug of the list: it needs no escaping
			ctx.Navigate(overviewPath(slug))
			return
		}
	}
}

// refreshMe asks again for the workspaces the user opens, keeping the
// page on screen (reloadMe would show the loading view in its place, and
// the page would lose what it just said): a platform owner made one.
func (s *Shell) refreshMe() {
	s.async(func(c context.Context) func(app.Context) {
		me, err := getMe(c)
		return func(ctx app.Context) {
			if err == nil { // else the switcher lacks the new one until the next page load
				s.me = me
			}
		}
	})
}
