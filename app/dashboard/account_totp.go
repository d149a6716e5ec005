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
	t := &p.totp
	if t.busy {
		return
	}
	t.problem, t.errs = "", nil
	if t.code == "" {
		t.errs = map[string]string{"code": "Enter the six digits your app shows."}
		focusLater(ctx, "code")
		return
	}
	t.busy = true
	code := t.code
	p.async(func(c context.Context) func(app.Context) {
		err := api.ConfirmTOTP(c, code)
		errs, explained := fieldErrors(err), explain(err)
		return func(ctx app.Context) {
			p.totpDone(ctx, errs, explained, "code", "Two-step verification is on: sign-in now asks for a code from your app.")
		}
	})
}

// removeTOTP removes the app once the removal is confirmed with the
// password.
func (p *accountPage) removeTOTP(ctx app.Context, e app.Event) {
	e.PreventDefault()
	t := &p.totp
	if t.busy {
		return
	}
	t.problem, t.errs = "", nil
	if t.password == "" {
		t.errs = map[string]string{"password": "Enter your password to remove the app."}
		focusLater(ctx, "password")
		return
	}
	t.busy = true
	password := t.password
	p.async(func(c context.Context) func(app.Context) {
		err := api.RemoveTOTP(c, password)
		errs, explained := fieldErrors(err), explain(err)
		return func(ctx app.Context) {
			p.totpDone(ctx, errs, explained, "password", "Two-step verification is off: sign-in asks for your password only.")
		}
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
