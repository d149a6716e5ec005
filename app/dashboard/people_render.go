package dashboard

import (
	"strings"
	"time"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"github.com/feedbackhq/feedback/shared/feedback"
)

// Render renders the page: the invitation form, then the members.
func (p *peoplePage) Render() app.UI {
	if p.denied {
		role := ""
		if p.Workspace != nil {
			role = " You are " + aRole(p.Workspace.Role) + " here."
		}
		return app.Section().Class("places").Body(
			title("People"),
			app.P().ID(statusID).Role("status").TabIndex(-1).
				Text("Only a platform owner can see and manage the members of a workspace and invite people."+role),
		)
	}
	return app.Section().Class("places").Body(
		title("People"),
		app.P().Text("Who can open this workspace, and with what role: admins manage locations, posters, forms, kiosks and webhooks; viewers read. Platform owners can open every workspace and are not listed."),
		p.renderInvite(),
		app.H2().ID("members-title").Text("Members"),
		app.P().ID(statusID).Role("status").TabIndex(-1).Text(p.statusText()),
		app.If(p.problem != "", func() app.UI {
			return app.Div().Class("errors").Role("alert").Body(
				app.P().ID("members-problem").Text(p.problem),
				app.Button().ID("members-retry").Type("button").Class("inline").Text("Load the members again").
					OnClick(func(ctx app.Context, e app.Event) { p.problem = ""; p.load() }),
			)
		}),
		p.renderConfirm(),
		app.If(p.loaded && len(p.members) > 0, p.renderTable),
	)
}

func (p *peoplePage) statusText() string {
	switch {
	case p.notice != "":
		return p.notice
	case !p.loaded && p.loading:
		return "Loading the members…"
	case p.loaded && len(p.members) == 0:
		return "No member yet. Invite someone with a link above."
	}
	return ""
}

// renderInvite is the form that makes an invitation link, and the link
// made last, shown this once.
func (p *peoplePage) renderInvite() app.UI {
	b := app.Button().ID("create-invite").Type("submit").Class("primary", "inline").Text("Create an invitation link")
	if p.inviting {
		b = b.Disabled(true).Text("Creating…")
	}
	return app.Form().ID("new-invite").Class("create-form").Aria("labelledby", "new-invite-title").
		OnSubmit(func(ctx app.Context, e app.Event) { e.PreventDefault(); p.createInvite(ctx) }).Body(
		app.H2().ID("new-invite-title").Text("Invite someone"),
		problemBox("invite-problem", p.inviteMsg),
		app.Div().Class("field").Body(
			app.Label().For("invite-role").Text("Role"),
			app.Select().ID("invite-role").OnChange(func(ctx app.Context, e app.Event) { p.inviteRole = chosen(ctx) }).Body(
				option(feedback.RoleViewer, "Viewer: reads the feedback", p.inviteRole == feedback.RoleViewer),
				option(feedback.RoleAdmin, "Admin: manages the workspace", p.inviteRole == feedback.RoleAdmin),
			),
		),
		b,
		app.If(p.invite != nil, p.renderLink),
	)
}

// renderLink is the invitation link with its copy button and expiry.
func (p *peoplePage) renderLink() app.UI {
	inv := p.invite
	return app.Div().ID("invite").Class("invite").Body(
		app.Div().Class("field").Body(
			app.Label().For("invite-link").Text("Invitation link for "+aRole(inv.Role)),
			app.Input().Type("text").ID("invite-link").ReadOnly(true).Value(inv.URL).Aria("describedby", "invite-expiry"),
		),
		app.P().ID("invite-expiry").Text("Send it to the person you invite. It works once, until "+dateOf(inv.ExpiresAt.Time)+
			" ("+inWords(time.Until(inv.ExpiresAt.Time))+" from now). It is shown only now: copy it before you leave the page."),
		app.Div().Class("buttons").Body(
			app.Button().ID("copy-invite").Type("button").Class("inline").Text("Copy the link").
				OnClick(func(ctx app.Context, e app.Event) { p.copyLink(ctx) }),
			app.Span().ID("copy-status").Role("status").Text(p.copied),
		),
	)
}

func (p *peoplePage) renderTable() app.UI {
	return app.Table().ID("members").Class("records", "places-table").Body(
		app.Caption().Class("sr-only").Text("Members, with their roles"),
		app.THead().Body(app.Tr().Body(
			app.Th().Scope("col").Text("Member"),
			app.Th().Scope("col").Text("Role"),
			app.Th().Scope("col").Text("Joined"),
			app.Th().Scope("col").Text("Actions"),
		)),
		app.TBody().Body(app.Range(p.members).Slice(func(i int) app.UI { return p.renderRow(p.members[i]) })),
	)
}

// renderRow is one member: who, their role, when they joined, and the
// buttons that ask to change the role or to remove them.
func (p *peoplePage) renderRow(m feedback.Member) app.UI {
	who := m.Email
	if m.Name != "" {
		who = m.Name + " (" + m.Email + ")"
	}
	to := otherRole(m.Role)
	return app.Tr().DataSet("member", m.UserID).Body(
		app.Th().Scope("row").Text(who),
		app.Td().DataSet("label", "Role").Class("role").Text(capital(roleName(m.Role))),
		app.Td().DataSet("label", "Joined").Text(dateOf(m.CreatedAt.Time)),
		app.Td().Class("actions").Body(
			app.Button().Type("button").Class("inline", "change-role").Aria("label", "Make "+m.Email+" "+aRole(to)).
				Text("Make "+to).OnClick(func(ctx app.Context, e app.Event) { p.ask(ctx, m, to) }, app.EventScope(m.UserID, to)),
			app.Button().Type("button").Class("inline", "danger", "remove").Aria("label", "Remove "+m.Email).Text("Remove").
				OnClick(func(ctx app.Context, e app.Event) { p.ask(ctx, m, "") }, app.EventScope(m.UserID)),
		),
	)
}

// renderConfirm asks to confirm the change asked for, saying what it
// does.
func (p *peoplePage) renderConfirm() app.UI {
	var m *feedback.Member
	for i := range p.members {
		if p.members[i].UserID == p.asking {
			m = &p.members[i]
		}
	}
	if m == nil {
		return app.If(false, nil)
	}
	mem := *m
	head, text, yes := "Make "+mem.Email+" "+aRole(p.change)+"?",
		"From their next request on, "+mem.Email+" is "+aRole(p.change)+" of this workspace.", "Make "+p.change
	if p.change == "" {
		head, text, yes = "Remove "+mem.Email+"?",
			"From their next request on, "+mem.Email+" can no longer open this workspace. Their account stays; a new invitation can let them in again.",
			"Remove "+mem.Email
	}
	return app.Div().ID("confirm-member").Class("confirm").Role("group").Aria("labelledby", "confirm-member-title").TabIndex(-1).Body(
		app.H2().ID("confirm-member-title").Text(head),
		app.P().ID("confirm-member-text").Text(text),
		app.Div().Class("buttons").Body(
			disabledIf(app.Button().ID("confirm-member-yes").Type("button").Class("danger", "inline").Text(yes), p.working).
				OnClick(func(ctx app.Context, e app.Event) { p.apply(ctx, mem) }, app.EventScope(mem.UserID, mem.Role)),
			app.Button().ID("confirm-member-no").Type("button").Class("inline").Text("Cancel").
				OnClick(func(ctx app.Context, e app.Event) { p.asking = ""; focusLater(ctx, statusID) }),
		),
	)
}

// capital is s with its first letter in upper case.
func capital(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}
