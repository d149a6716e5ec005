package dashboard

import (
	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"github.com/feedbackhq/feedback/shared/feedback"
)

// overviewPage is a workspace's overview at /w/{slug}/; live feedback
// comes in the next release.
type overviewPage struct {
	app.Compo
	Workspace *feedback.Membership
}

// Render renders the page.
func (p *overviewPage) Render() app.UI {
	ws := p.Workspace
	return app.Section().Body(
		title("Overview"),
		app.P().ID("overview-placeholder").Text("Live feedback comes in the next release: the reviews, hygiene reports and survey answers of this workspace will appear here as they arrive."),
		app.P().Class("hint").Text("Your role in "+ws.Name+": "+roleName(ws.Role)+"."),
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
