package dashboard

import (
	"strings"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"github.com/feedbackhq/feedback/shared/feedback"
)

// Render renders the page.
func (p *federationsPage) Render() app.UI {
	if !p.Owner {
		return app.Section().Body(title("Identity federation"),
			app.P().ID("federations-status").Text("Only a platform owner can see, add and remove the identity federations of this installation."))
	}
	return app.Section().Class("places").Body(
		title("Identity federation"),
		app.P().Text("People whose email address is at one of a federation's domains sign in through their organisation's own provider, OpenID Connect or SAML 2.0, instead of with a password here."),
		app.P().ID("federations-status").Role("status").TabIndex(-1).Text(p.statusText()),
		problemBox("federations-problem", p.problem),
		slot(p.fresh != nil, p.renderFresh),
		slot(p.asking != "", p.renderConfirm),
		app.If(p.loaded && len(p.items) > 0, p.renderTable),
		app.If(!p.absent, p.renderForm),
	)
}

func (p *federationsPage) statusText() string {
	switch {
	case p.notice != "":
		return p.notice
	case !p.loaded && p.loading:
		return "Loading the federations…"
	case p.loaded && len(p.items) == 0:
		return "No federation yet: everybody signs in with a password. Add one below."
	}
	return ""
}

// renderFresh says what to register at the provider just added.
func (p *federationsPage) renderFresh() app.UI {
	f := p.fresh
	return app.Div().ID("new-federation").Class("shown-once").Body(
		app.H2().ID("new-federation-title").TabIndex(-1).Text("Added “"+f.Name+"”"),
		app.P().Text("Register this at the provider, so that it sends people back here:"),
		registerList(*f),
		app.Button().ID("new-federation-done").Type("button").Class("inline").Text("Done").
			OnClick(func(ctx app.Context, e app.Event) { p.fresh = nil; focusLater(ctx, "federations-title") }),
	)
}

// registerList is what to register at f's provider.
func registerList(f feedback.Federation) app.UI {
	if f.Kind == feedback.FederationSAML {
		return app.Dl().Class("register").Body(
			app.Dt().Text("SP entity ID and metadata"), app.Dd().Class("mono").Text(f.SPMetadataURL),
			app.Dt().Text("Assertion consumer service (HTTP-POST)"), app.Dd().Class("mono").Text(f.ACSURL),
		)
	}
	return app.Dl().Class("register").Body(app.Dt().Text("Redirect URI"), app.Dd().Class("mono").Text(f.RedirectURI))
}

func (p *federationsPage) renderTable() app.UI {
	items := p.items
	return app.Div().Body(
		app.H2().ID("federations-title").TabIndex(-1).Text("Federations"),
		app.Table().ID("federations").Class("records").Body(
			app.Caption().Class("sr-only").Text("Identity federations"),
			app.THead().Body(app.Tr().Body(
				app.Th().Scope("col").Text("Name"),
				app.Th().Scope("col").Text("Kind"),
				app.Th().Scope("col").Text("Issuer or entity"),
				app.Th().Scope("col").Text("Domains"),
				app.Th().Scope("col").Text("MFA trusted"),
				app.Th().Scope("col").Text("Register at the provider"),
				app.Th().Scope("col").Text("Actions"),
			)),
			app.TBody().Body(app.Range(items).Slice(func(i int) app.UI { return p.renderRow(items[i]) })),
		),
	)
}

func (p *federationsPage) renderRow(f feedback.Federation) app.UI {
	trusted := "No"
	if f.TrustMFA {
		trusted = "Yes"
	}
	return app.Tr().ID("federation-"+f.ID).Body(
		app.Th().Scope("row").Text(f.Name),
		app.Td().DataSet("label", "Kind").Text(kindName(f.Kind)),
		app.Td().DataSet("label", "Issuer or entity").Body(app.Span().Class("mono").Text(f.Issuer)),
		app.Td().DataSet("label", "Domains").Text(strings.Join(f.Domains, ", ")),
		app.Td().DataSet("label", "MFA trusted").Text(trusted),
		app.Td().DataSet("label", "Register at the provider").Body(registerList(f)),
		app.Td().Class("actions").Body(p.renderRemove(f)),
	)
}

// renderRemove is the button that asks whether to remove f.
func (p *federationsPage) renderRemove(f feedback.Federation) app.UI {
	b := app.Button().ID("remove-"+f.ID).Type("button").Class("inline", "danger").Text("Remove").
		Aria("label", "Remove "+f.Name).
		OnClick(func(ctx app.Context, e app.Event) { p.ask(f) }, app.EventScope(f.ID))
	return disabledIf(b, p.busy || p.asking != "")
}

// renderConfirm asks whether to remove the federation asked about,
// saying who will no longer sign in that way.
func (p *federationsPage) renderConfirm() app.UI {
	for _, f := range p.items {
		if f.ID == p.asking {
			return confirmBox("confirm-remove", "Remove “"+f.Name+"”? People at "+strings.Join(f.Domains, ", ")+
				" will no longer sign in through it; their accounts stay, and sign in again only with a set-password link.",
				f.ID, "Remove federation", func() { p.remove(f) }, func() { p.asking = ""; focusLater(p.ui, "remove-"+f.ID) })
		}
	}
	return app.If(false, nil)
}

// kindName is how the page names a kind of federation.
func kindName(kind string) string {
	if kind == feedback.FederationSAML {
		return "SAML 2.0"
	}
	return "OpenID Connect"
}
