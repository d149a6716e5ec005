package dashboard

import (
	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"github.com/feedbackhq/feedback/shared/feedback"
)

// missingPage answers a path below a workspace (Slug) or the settings
// (no Slug) that has no page.
type missingPage struct {
	app.Compo
	Slug string
}

// Render renders the page.
func (p *missingPage) Render() app.UI {
	if p.Slug == "" {
		return app.Section().Body(
			title("Page not found"),
			app.P().Text("The settings have no such page yet."),
			app.P().Body(app.A().Href(SecurityPath).Text("Go to the security settings")),
		)
	}
	return app.Section().Body(
		title("Page not found"),
		app.P().Text("This workspace has no such page yet."),
		app.P().Body(app.A().Href(overviewPath(p.Slug)).Text("Go to the overview")),
	)
}

// noAccessPage answers a workspace the user is not a member of, with the
// workspaces they can open.
type noAccessPage struct {
	app.Compo
	Slug       string
	Workspaces []feedback.Membership
}

// Render renders the page.
func (p *noAccessPage) Render() app.UI {
	ws := p.Workspaces
	return app.Section().Body(
		title("No access"),
		app.P().Text("You are not a member of the workspace "+p.Slug+", or it does not exist."),
		app.If(len(ws) > 0, func() app.UI {
			return app.Nav().Aria("label", "Your workspaces").Body(app.Ul().Body(
				app.Range(ws).Slice(func(i int) app.UI {
					return app.Li().Body(app.A().Href(overviewPath(ws[i].Slug)).Text(ws[i].Name))
				}),
			))
		}).Else(func() app.UI {
			return app.P().Text("You are not a member of any workspace yet: ask an owner for an invitation.")
		}),
	)
}
