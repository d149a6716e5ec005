package dashboard

import (
	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"github.com/feedbackhq/feedback/shared/feedback"
)

// Render renders the page.
func (p *tokensPage) Render() app.UI {
	head := integrationsHead(p.Workspace, tokensPath, "API tokens")
	if !isOwner(p.Workspace) {
		return app.Section().Body(head,
			app.P().ID("tokens-status").Text("Only a platform owner can see, create and revoke the API tokens of this workspace."))
	}
	return app.Section().Body(
		head,
		app.P().Text("An API token lets an integration read and change this workspace's data through the REST API. Give each integration its own token, so that you can revoke it alone."),
		app.P().ID("tokens-status").Role("status").TabIndex(-1).Text(p.statusText()),
		problemBox("tokens-problem", p.problem),
		slot(p.fresh != nil, p.renderFresh),
		p.renderCreate(),
		app.If(p.loaded && len(p.items) > 0, p.renderTable),
	)
}

func (p *tokensPage) statusText() string {
	switch {
	case p.notice != "":
		return p.notice
	case !p.loaded && p.loading:
		return "Loading the tokens…"
	case p.loaded && len(p.items) == 0:
		return "This workspace has no API token yet."
	}
	return ""
}

// renderFresh shows the value of the token just created, once.
func (p *tokensPage) renderFresh() app.UI {
	t := p.fresh
	return app.Div().ID("new-token").Class("shown-once").Body(
		app.H2().ID("new-token-title").TabIndex(-1).Text("Token “"+t.Name+"” created"),
		app.P().Class("warning").Text("Copy the value now: it will not be shown again. Only a hash of it is stored."),
		app.Label().For("new-token-value").Text("Token value"),
		app.Div().Class("copy-row").Body(
			app.Input().ID("new-token-value").Type("text").ReadOnly(true).Value(t.Token).
				Attr("autocomplete", "off").Attr("spellcheck", "false"),
			copyButton("new-token-value", "Copy the token value", "new-token-copied"),
		),
		app.P().ID("new-token-copied").Role("status").Class("hint"),
		app.Button().ID("new-token-done").Type("button").Class("inline").Text("I have copied it").
			OnClick(func(ctx app.Context, e app.Event) { p.fresh = nil; focusLater(p.ui, "token-name") }),
	)
}

func (p *tokensPage) renderCreate() app.UI {
	b := app.Button().ID("token-create").Type("submit").Class("primary inline").Text("Create token")
	if p.busy {
		b = b.Disabled(true)
	}
	return app.Form().ID("token-form").Class("inline-form").OnSubmit(p.create).Body(
		app.H2().Text("Create a token"),
		app.Label().For("token-name").Text("Name"),
		app.P().ID("token-name-hint").Class("hint").Text("What the token is for, for example “Data warehouse export”."),
		app.Input().ID("token-name").Type("text").MaxLength(100).Attr("autocomplete", "off").
			Aria("describedby", "token-name-hint").
			OnInput(func(ctx app.Context, e app.Event) { p.name = ctx.JSSrc().Get("value").String() }),
		b,
	)
}

func (p *tokensPage) renderTable() app.UI {
	items := p.items
	return app.Table().ID("tokens").Class("sessions").Body(
		app.Caption().Text("Tokens"),
		app.THead().Body(app.Tr().Body(
			app.Th().Scope("col").Text("Name"),
			app.Th().Scope("col").Text("Starts with"),
			app.Th().Scope("col").Text("Created"),
			app.Th().Scope("col").Text("Last used"),
			app.Th().Scope("col").Text("Status"),
		)),
		app.TBody().Body(app.Range(items).Slice(func(i int) app.UI { return p.renderToken(items[i]) })),
	)
}

func (p *tokensPage) renderToken(t feedback.APIToken) app.UI {
	lastUsed := app.UI(app.Span().Text("Never"))
	if t.LastUsedAt != nil {
		lastUsed = timeOf(t.LastUsedAt.Time)
	}
	return app.Tr().ID("token-"+t.ID).Body(
		app.Th().Scope("row").Text(t.Name),
		app.Td().DataSet("label", "Starts with").Body(app.Span().Class("mono").Text(t.Prefix+"…")),
		app.Td().DataSet("label", "Created").Body(timeOf(t.CreatedAt.Time)),
		app.Td().DataSet("label", "Last used").Body(lastUsed),
		app.Td().DataSet("label", "Status").Body(p.renderTokenState(t)),
	)
}

// renderTokenState is a revoked token's date, or the button that revokes
// a live one and, once pressed, the question whether to.
func (p *tokensPage) renderTokenState(t feedback.APIToken) app.UI {
	switch {
	case t.RevokedAt != nil:
		return app.Span().Class("revoked").Body(app.Text("Revoked "), timeOf(t.RevokedAt.Time))
	case p.asking == t.ID:
		return confirmBox("confirm-revoke", "Revoke “"+t.Name+"”? Every request with it is refused at once; this cannot be undone.",
			t.ID, "Revoke token", func() { p.revoke(t) }, func() { p.asking = ""; focusLater(p.ui, "revoke-"+t.ID) })
	}
	b := app.Button().ID("revoke-"+t.ID).Type("button").Class("revoke").Text("Revoke").
		Aria("label", "Revoke the token "+t.Name).
		OnClick(func(ctx app.Context, e app.Event) { p.ask(t) }, app.EventScope(t.ID))
	if p.busy {
		b = b.Disabled(true)
	}
	return app.Div().Body(app.Span().Text("Active "), b)
}
