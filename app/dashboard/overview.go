package dashboard

import (
	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"github.com/feedbackhq/feedback/shared/feedback"
)

// renderOverview is the workspace's overview; live feedback comes in the
// next release.
func (p *Page) renderOverview() app.UI {
	ws := p.workspace()
	return app.Section().Body(
		title("Overview"),
		app.P().ID("overview-placeholder").Text("Live feedback comes in the next release: the reviews, hygiene reports and survey answers of this workspace will appear here as they arrive."),
		app.P().Class("hint").Text("Your role in "+ws.Name+": "+roleName(ws.Role)+"."),
	)
}

// renderMissing answers a path below a workspace or the settings that
// has no page.
func (p *Page) renderMissing() app.UI {
	if p.slug == "" {
		return app.Section().Body(
			title("Page not found"),
			app.P().Text("The settings have no such page yet."),
			app.P().Body(app.A().Href(SecurityPath).Text("Go to the security settings")),
		)
	}
	return app.Section().Body(
		title("Page not found"),
		app.P().Text("This workspace has no such page yet."),
		app.P().Body(app.A().Href(overviewPath(p.slug)).Text("Go to the overview")),
	)
}

// renderNoAccess answers a workspace the user is not a member of, with
// the workspaces they can open.
func (p *Page) renderNoAccess() app.UI {
	ws := p.me.Workspaces
	return app.Section().Body(
		title("No access"),
		app.P().Text("You are not a member of the workspace "+p.slug+", or it does not exist."),
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

// roleName names a role for people.
func roleName(role string) string {
	switch role {
	case feedback.RoleOwner:
		return "platform owner"
	case feedback.RoleAdmin:
		return "admin"
	case feedback.RoleViewer:
		return "viewer"
	}
	return role
}
