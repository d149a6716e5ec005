package dashboard

import (
	"context"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"github.com/feedbackhq/feedback/shared/client"
	"github.com/feedbackhq/feedback/shared/feedback"
)

// alertRulesPage is /w/{slug}/alerts/rules: the workspace's alert rules,
// and for admins and owners the form that creates and edits them, the
// switch that enables and disables them, and their deletion (asked
// first). A form with changes holds the page until it is saved or
// discarded (see leaveGuard).
type alertRulesPage struct {
	app.Compo
	requests
	Shell     *Shell
	Workspace *feedback.Membership

	api     *client.Client
	rules   []feedback.AlertRule
	locs    []feedback.Location
	loaded  bool
	form    *ruleForm // the form open; nil when none is
	dirty   bool      // the open form has changes
	guard   leaveGuard
	leaveTo string // a link followed while the form had changes
	asking  string // the rule whose deletion is asked about
	busy    bool
	notice  string
	problem string
}

// OnMount reads the rules and the locations.
func (p *alertRulesPage) OnMount(ctx app.Context) {
	p.mount(ctx)
	if !app.IsClient || p.Workspace == nil {
		return
	}
	p.api = workspaceAPI(p.Workspace)
	p.load()
}

// OnDismount lets the page go and cancels its requests.
func (p *alertRulesPage) OnDismount() {
	p.guard.disarm()
	p.dismount()
}

// load reads the rules and the locations.
func (p *alertRulesPage) load() {
	p.async(func(c context.Context) func(app.Context) {
		rules, err := p.api.AlertRules(c, allOf)
		var locs *feedback.Page[feedback.Location]
		if err == nil {
			locs, err = p.api.Locations(c, allOf)
		}
		err = explain(err)
		return func(ctx app.Context) {
			if p.failed(ctx, err, "The rules could not be loaded: ") {
				return
			}
			p.rules, p.locs, p.loaded = rules.Data, locs.Data, true
		}
	})
}

// failed shows err, prefixed, and reports whether there was one.
func (p *alertRulesPage) failed(ctx app.Context, err error, prefix string) bool {
	return p.Shell.refused(err, prefix, func(msg string) {
		p.problem = msg
		focusLater(ctx, "rules-problem")
	})
}

// open shows form f, in new inputs: go-app would keep what another rule's
// inputs hold (it cannot clear an input, GOAPP.md section 6).
func (p *alertRulesPage) open(ctx app.Context, f *ruleForm) {
	p.close()
	p.notice, p.problem = "", ""
	p.ui.Defer(func(app.Context) {
		p.ui.Dispatch(func(app.Context) {
			p.form = f
			focusLater(p.ui, "rule-name")
		})
	})
}

// close closes the form, changes and all.
func (p *alertRulesPage) close() {
	p.form, p.dirty, p.leaveTo = nil, false, ""
	p.guard.disarm()
}

// edited records a change of the form and holds the page.
func (p *alertRulesPage) edited(ctx app.Context, set func(f *ruleForm)) {
	set(p.form)
	if !p.dirty {
		p.dirty = true
		p.guard.arm(ctx, func(ctx app.Context, href string) {
			p.leaveTo = href
			focusLater(ctx, "confirm-leave-q")
		})
	}
}

// save creates or changes the rule of the form.
func (p *alertRulesPage) save(ctx app.Context, e app.Event) {
	e.PreventDefault()
	f := p.form
	if p.busy || f == nil {
		return
	}
	in, ok := f.input()
	if !ok {
		p.problem = "The rule was not saved: correct the fields marked below."
		focusLater(ctx, "rules-problem")
		return
	}
	p.busy, p.problem, p.notice = true, "", ""
	p.async(func(c context.Context) func(app.Context) {
		var r *feedback.AlertRule
		var err error
		if f.id == "" {
			r, err = p.api.CreateAlertRule(c, in)
		} else {
			r, err = p.api.UpdateAlertRule(c, f.id, in)
		}
		return func(ctx app.Context) {
			p.busy = false
			if err != nil {
				p.Shell.refusedForm(ctx, err, "The rule was not saved: ", "rules-problem", &f.errs, &p.problem)
				f.setErrs(f.errs)
				return
			}
			p.close()
			p.notice = "Saved the rule “" + r.Name + "”."
			focusLater(ctx, "rules-status")
			p.load()
		}
	})
}

// setEnabled enables or disables rule r.
func (p *alertRulesPage) setEnabled(ctx app.Context, r feedback.AlertRule, on bool) {
	done := "Disabled the rule “" + r.Name + "”: it raises no alert until it is enabled."
	if on {
		done = "Enabled the rule “" + r.Name + "”."
	}
	p.change(ctx, done, func(c context.Context) error {
		_, err := p.api.UpdateAlertRule(c, r.ID, feedback.AlertRuleInput{Enabled: &on})
		return err
	})
}

// remove deletes rule r.
func (p *alertRulesPage) remove(ctx app.Context, r feedback.AlertRule) {
	p.change(ctx, "Deleted the rule “"+r.Name+"”. Its alerts stay in the history.", func(c context.Context) error {
		return p.api.DeleteAlertRule(c, r.ID)
	})
}

// change runs one request on a rule, then says what it did and reads
// the rules again.
func (p *alertRulesPage) change(ctx app.Context, done string, call func(c context.Context) error) {
	if p.busy {
		return
	}
	p.busy, p.asking, p.notice, p.problem = true, "", "", ""
	p.async(func(c context.Context) func(app.Context) {
		err := explainFields(call(c))
		return func(ctx app.Context) {
			p.busy = false
			if p.failed(ctx, err, "The rule was not changed: ") {
				return
			}
			p.notice = done
			focusLater(ctx, "rules-status")
			p.load()
		}
	})
}
