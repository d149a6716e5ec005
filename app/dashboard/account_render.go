package dashboard

import (
	"strings"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"github.com/feedbackhq/feedback/shared/feedback"
)

// Render renders the page.
func (p *accountPage) Render() app.UI {
	return app.Section().Body(
		title("Account"),
		app.P().ID(accountStatusID).Role("status").TabIndex(-1).Text(p.statusText()),
		problemBox("account-problem", p.problem),
		slot(p.acct != nil, p.renderAccount),
	)
}

func (p *accountPage) statusText() string {
	switch {
	case p.notice != "":
		return p.notice
	case p.acct == nil && p.loading:
		return "Loading your account…"
	}
	return ""
}

func (p *accountPage) renderAccount() app.UI {
	a := p.acct
	intro := app.P().Body(app.Text("You are signed in as "), app.Strong().Text(a.Email), app.Text("."))
	switch a.SignIn {
	case feedback.SignInPassword:
		return app.Div().Body(intro, p.renderPassword(), p.renderTOTP())
	case feedback.SignInFederation:
		return app.Div().Body(intro, app.P().ID("managed-elsewhere").Text(
			a.Provider+", your organisation's identity provider, manages how you sign in: change your password and "+
				"two-step verification there."))
	}
	return app.Div().Body(intro, app.P().ID("managed-elsewhere").Text(
		"Your identity provider manages how you sign in: change your password and two-step verification there."))
}

func (p *accountPage) renderPassword() app.UI {
	f := &p.pw
	return app.Form().ID("password-form").Class("inline-form").OnSubmit(p.changePassword).Body(
		app.H2().Text("Change your password"),
		// For password managers: whose password this is.
		app.Input().Type("text").Name("username").Attr("autocomplete", "username").Value(p.acct.Email).Hidden(true),
		app.P().ID("password-note").Class("hint").Text(
			"Changing it signs out your other sessions, on every device; this one stays signed in."),
		secretField("current_password", "Current password", "", "current-password", f.errs,
			func(v string) { f.current = v }),
		secretField("new_password", "New password", "At least 12 characters; a few unrelated words are easy to remember.",
			"new-password", f.errs, func(v string) { f.next = v }),
		secretField("confirm_password", "New password again", "", "new-password", f.errs, func(v string) { f.confirm = v }),
		problemBox("password-problem", f.problem),
		disabledIf(app.Button().ID("password-change").Type("submit").Class("primary", "inline").Text("Change password"), f.busy),
	)
}

// secretField is a labelled input of a password or code, with the
// service's reason when it refused the value (errs[id]), tied to the
// input for screen readers.
func secretField(id, label, hint, autocomplete string, errs map[string]string, onInput func(string)) app.UI {
	kind := "password"
	if autocomplete == "one-time-code" {
		kind = "text"
	}
	in := app.Input().Type(kind).ID(id).Name(id).MaxLength(1024).Attr("autocomplete", autocomplete).
		OnInput(func(ctx app.Context, e app.Event) { onInput(ctx.JSSrc().Get("value").String()) })
	if kind == "text" {
		in = in.Attr("inputmode", "numeric").MaxLength(12)
	}
	var described []string
	if hint != "" {
		described = append(described, id+"-hint")
	}
	if errs[id] != "" {
		in = in.Aria("invalid", "true")
		described = append(described, id+"-error")
	}
	if len(described) > 0 {
		in = in.Aria("describedby", strings.Join(described, " "))
	}
	return app.Div().Class("field").Body(
		app.Label().For(id).Text(label),
		app.If(hint != "", func() app.UI { return app.P().ID(id + "-hint").Class("hint").Text(hint) }),
		in,
		app.If(errs[id] != "", func() app.UI { return app.P().ID(id + "-error").Class("field-error").Text(errs[id]) }),
	)
}

func (p *accountPage) renderTOTP() app.UI {
	t := &p.totp
	var body app.UI
	switch {
	case p.acct.TOTP && t.removing:
		body = p.renderRemove()
	case p.acct.TOTP:
		body = app.Div().Body(
			app.P().ID("totp-state").Text("On: signing in asks for your password and a code from your authenticator app."),
			app.Button().ID("totp-remove").Type("button").Class("danger", "inline").Text("Remove the authenticator app").
				OnClick(func(ctx app.Context, e app.Event) { t.removing = true; focusLater(p.ui, "totp-remove-q") }),
		)
	case t.enrol != nil:
		body = p.renderSetup()
	default:
		body = app.Div().Body(
			app.P().ID("totp-state").Text("Off: signing in asks for your password only. An authenticator app on your phone "+
				"adds a code that changes every 30 seconds."),
			disabledIf(app.Button().ID("totp-begin").Type("button").Class("primary", "inline").Text("Set up an authenticator app"), t.busy).
				OnClick(p.beginTOTP),
		)
	}
	return app.Div().ID("totp").Class("inline-form").Body(
		app.H2().ID("totp-title").TabIndex(-1).Text("Two-step verification"),
		body,
		problemBox("totp-problem", t.problem),
	)
}

// renderSetup shows the secret to set up, as a QR code and as text, and
// asks for the app's code.
func (p *accountPage) renderSetup() app.UI {
	t := &p.totp
	return app.Form().ID("totp-confirm-form").OnSubmit(p.confirmTOTP).Body(
		app.H3().ID("totp-setup-title").TabIndex(-1).Text("Set up your authenticator app"),
		app.P().Text("1. Scan this QR code with your authenticator app (within 15 minutes):"),
		app.Img().ID("totp-qr").Src(t.enrol.QRCode).Width(200).Height(200).
			Alt("QR code for your authenticator app, holding the key written below"),
		app.P().Body(app.Text("Or enter this key by hand: "),
			app.Span().ID("totp-secret").Class("mono").Text(groups(t.enrol.Secret))),
		app.P().Text("2. Enter the six-digit code the app shows:"),
		secretField("code", "Code", "", "one-time-code", t.errs, func(v string) { t.code = v }),
		app.Div().Class("actions").Body(
			disabledIf(app.Button().ID("totp-confirm").Type("submit").Class("primary", "inline").Text("Turn on"), t.busy),
			app.Button().ID("totp-cancel").Type("button").Class("inline").Text("Cancel").
				OnClick(func(ctx app.Context, e app.Event) { p.cancelTOTP() }),
		),
	)
}

// renderRemove asks to confirm the removal, with the password.
func (p *accountPage) renderRemove() app.UI {
	t := &p.totp
	return app.Form().ID("totp-remove-form").Class("confirm").Aria("labelledby", "totp-remove-q").OnSubmit(p.removeTOTP).Body(
		app.P().ID("totp-remove-q").TabIndex(-1).Text("Remove the authenticator app? Signing in will ask for your password only."),
		secretField("password", "Your password", "", "current-password", t.errs, func(v string) { t.password = v }),
		app.Div().Class("actions").Body(
			disabledIf(app.Button().ID("totp-remove-yes").Type("submit").Class("danger").Text("Remove the app"), t.busy),
			app.Button().ID("totp-remove-no").Type("button").Text("Cancel").
				OnClick(func(ctx app.Context, e app.Event) { p.cancelTOTP() }),
		),
	)
}

// groups writes a key in groups of four characters, as apps show them.
func groups(key string) string {
	var b strings.Builder
	for i, r := range key {
		if i > 0 && i%4 == 0 {
			b.WriteByte(' ')
		}
		b.WriteRune(r)
	}
	return b.String()
}
