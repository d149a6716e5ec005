package dashboard

import (
	"context"

	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// The two-step verification section of the Account page: enrol an
// authenticator app (a QR code and the key as text, then a code), or
// remove it with the password.

// beginTOTP asks for a new secret to set up.
func (p *accountPage) beginTOTP(ctx app.Context, e app.Event) {
	t := &p.totp
	if t.busy {
		return
	}
	t.busy, t.problem, t.errs, p.notice = true, "", nil, ""
	p.async(func(c context.Context) func(app.Context) {
		en, err := api.BeginTOTP(c)
		err = explain(err)
		return func(ctx app.Context) {
			t.busy = false
			switch {
			case p.Shell.gone(err):
			case err != nil:
				t.problem = "The set-up could not start: " + err.Error()
				focusLater(ctx, "totp-problem")
			default:
				t.enrol, t.code = en, ""
				focusLater(ctx, "totp-setup-title")
			}
		}
	})
}

// confirmTOTP sends the app's code.
func (p *accountPage) confirmTOTP(ctx app.Context, e app.Event) {
	e.PreventDefault()
	p.totp.send(p, ctx, totpCall{field: "code", value: p.totp.code, empty: "Enter the six digits your app shows.",
		call: api.ConfirmTOTP, done: "Two-step verification is on: sign-in now asks for a code from your app."})
}

// removeTOTP removes the app once the removal is confirmed with the
// password.
func (p *accountPage) removeTOTP(ctx app.Context, e app.Event) {
	e.PreventDefault()
	p.totp.send(p, ctx, totpCall{field: "password", value: p.totp.password, empty: "Enter your password to remove the app.",
		call: api.RemoveTOTP, done: "Two-step verification is off: sign-in asks for your password only."})
}

// totpCall is a request of the section that sends one field: the
// confirmation's code or the removal's password.
type totpCall struct {
	field, value string
	empty        string // the error when value is empty
	call         func(c context.Context, value string) error
	done         string // what to announce after it
}

// send makes call unless the section is busy or its field is empty.
func (t *totpState) send(p *accountPage, ctx app.Context, call totpCall) {
	if t.busy {
		return
	}
	t.problem, t.errs = "", nil
	if call.value == "" {
		t.errs = map[string]string{call.field: call.empty}
		focusLater(ctx, call.field)
		return
	}
	t.busy = true
	p.async(func(c context.Context) func(app.Context) {
		err := call.call(c, call.value)
		errs, explained := fieldErrors(err), explain(err)
		return func(ctx app.Context) { p.totpDone(ctx, errs, explained, call.field, call.done) }
	})
}

// totpDone shows the answer of a confirmation or removal: the field's
// error, the problem, or the new state with done announced.
func (p *accountPage) totpDone(ctx app.Context, errs map[string]string, err error, field, done string) {
	t := &p.totp
	t.busy = false
	switch {
	case p.Shell.gone(err):
	case errs != nil:
		t.errs = errs
		focusLater(ctx, field)
	case err != nil:
		t.problem = err.Error()
		focusLater(ctx, "totp-problem")
	default:
		clearInput(field)
		p.acct.TOTP = !p.acct.TOTP
		p.totp, p.notice = totpState{}, done
		focusLater(ctx, accountStatusID)
	}
}

// cancelTOTP closes the set-up or the removal; the focus goes to the
// section's heading (the pressed button is gone: the page's context
// runs the focus, not the button's).
func (p *accountPage) cancelTOTP() {
	p.totp = totpState{}
	focusLater(p.ui, "totp-title")
}
