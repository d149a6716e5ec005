package dashboard

import (
	"context"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"github.com/feedbackhq/feedback/shared/feedback"
)

// accountPage is Settings > Account: the user's password and
// authenticator app at the embedded identity provider, or a note that
// their organisation's provider manages them.
type accountPage struct {
	app.Compo
	requests
	Shell *Shell

	acct    *feedback.Account
	loading bool
	problem string // why the account could not be loaded
	notice  string // what the last action did, announced
	pw      passwordForm
	totp    totpState
}

// passwordForm is the state of the change-password form.
type passwordForm struct {
	current, next, confirm string
	errs                   map[string]string // by field: current_password, new_password, confirm_password
	busy                   bool
	problem                string
}

// totpState is the state of the two-step verification section.
type totpState struct {
	enrol    *feedback.TOTPEnrolment // the secret being set up
	code     string
	removing bool // the removal is asked
	password string
	errs     map[string]string // by field: code, password
	busy     bool
	problem  string
}

// OnMount loads the account.
func (p *accountPage) OnMount(ctx app.Context) {
	p.mount(ctx)
	p.load()
}

// OnDismount cancels the page's requests.
func (p *accountPage) OnDismount() { p.dismount() }

func (p *accountPage) load() {
	p.loading = true
	p.async(func(c context.Context) func(app.Context) {
		a, err := api.Account(c)
		err = explain(err)
		return func(ctx app.Context) {
			p.loading = false
			switch {
			case p.Shell.gone(err):
			case err != nil:
				p.problem = "Your account could not be loaded: " + err.Error()
			default:
				p.acct, p.problem = a, ""
			}
		}
	})
}

// changePassword sends the form, once the two new passwords agree.
func (p *accountPage) changePassword(ctx app.Context, e app.Event) {
	e.PreventDefault()
	f := &p.pw
	if f.busy {
		return
	}
	f.errs, f.problem, p.notice = nil, "", ""
	switch {
	case f.current == "":
		f.errs = map[string]string{"current_password": "Enter your current password."}
	case f.next != f.confirm:
		f.errs = map[string]string{"confirm_password": "The two new passwords differ."}
	}
	if f.errs != nil {
		focusLater(ctx, firstError(f.errs, "current_password", "new_password", "confirm_password"))
		return
	}
	f.busy = true
	current, next := f.current, f.next
	p.async(func(c context.Context) func(app.Context) {
		out, err := api.ChangePassword(c, current, next)
		errs, explained := fieldErrors(err), explain(err)
		return func(ctx app.Context) { p.passwordChanged(ctx, out, errs, explained) }
	})
}

func (p *accountPage) passwordChanged(ctx app.Context, out *feedback.PasswordChanged, errs map[string]string, err error) {
	f := &p.pw
	f.busy = false
	switch {
	case p.Shell.gone(err):
	case errs != nil:
		f.errs = errs
		focusLater(ctx, firstError(errs, "current_password", "new_password"))
	case err != nil:
		f.problem = "Your password was not changed: " + err.Error()
		focusLater(ctx, "password-problem")
	default:
		p.pw = passwordForm{}
		for _, id := range []string{"current_password", "new_password", "confirm_password"} {
			clearInput(id)
		}
		p.notice = "Your password is changed. " + endedText(out.SessionsEnded)
		focusLater(ctx, accountStatusID)
	}
}

// endedText says how many other sessions a password change ended.
func endedText(n int) string {
	if n == 0 {
		return "You had no other session; this one stays signed in."
	}
	return plural(n, "other session was", "other sessions were") + " signed out; this one stays signed in."
}

// firstError returns the first of ids that has an error in errs.
func firstError(errs map[string]string, ids ...string) string {
	for _, id := range ids {
		if errs[id] != "" {
			return id
		}
	}
	return ids[0]
}

// accountStatusID is the status line of the Account page.
const accountStatusID = "account-status"
