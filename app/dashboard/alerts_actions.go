package dashboard

import (
	"context"
	"strings"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"github.com/feedbackhq/feedback/shared/client"
	"github.com/feedbackhq/feedback/shared/feedback"
)

// alertActs are the Acknowledge and Resolve buttons of an alert, the
// note asked before a resolution, and the requests they send; the alerts
// page and the page of one alert share them.
type alertActs struct {
	req       *requests
	shell     *Shell
	api       *client.Client
	ws        *feedback.Membership
	busy      string // the alert whose request is under way
	resolving string // the alert whose resolution note is open
	note      string
	notice    string // what the last action did, announced
	problem   string // why the last action failed
	statusID  string // the element the focus moves to after an action
	// changed receives the alert an action changed.
	changed func(ctx app.Context, a feedback.Alert)
}

// acknowledge acknowledges a.
func (x *alertActs) acknowledge(a feedback.Alert) {
	x.send(a, "acknowledged", func(c context.Context) (*feedback.Alert, error) { return x.api.AcknowledgeAlert(c, a.ID) })
}

// resolve resolves a with the note typed.
func (x *alertActs) resolve(a feedback.Alert) {
	note := strings.TrimSpace(x.note)
	x.send(a, "resolved", func(c context.Context) (*feedback.Alert, error) { return x.api.ResolveAlert(c, a.ID, note) })
}

// send runs one action on a and says what it did.
func (x *alertActs) send(a feedback.Alert, did string, call func(c context.Context) (*feedback.Alert, error)) {
	if x.busy != "" {
		return
	}
	x.busy, x.notice, x.problem = a.ID, "", ""
	x.req.async(func(c context.Context) func(app.Context) {
		got, err := call(c)
		err = explainFields(err)
		return func(ctx app.Context) {
			x.busy = ""
			if x.shell.refused(err, "The alert was not "+did+": ", func(msg string) { x.problem = msg }) {
				focusLater(ctx, x.statusID)
				return
			}
			x.resolving, x.note = "", ""
			x.notice = "The alert “" + got.RuleName + "” is " + did + "."
			x.changed(ctx, *got)
			focusLater(ctx, x.statusID)
		}
	})
}

// render is the buttons of a, or its resolution form; none for a viewer
// or a resolved alert.
func (x *alertActs) render(a feedback.Alert) app.UI {
	if !canWrite(x.ws) || a.State == feedback.AlertResolved {
		return app.If(false, nil)
	}
	if x.resolving == a.ID {
		return x.renderResolve(a)
	}
	button := func(id, text string, click func()) app.UI {
		return disabledIf(app.Button().ID(id+"-"+a.ID).Type("button").Class("inline").Text(text).
			Aria("label", text+": "+a.RuleName+", "+a.Summary), x.busy != "").
			OnClick(func(ctx app.Context, e app.Event) { click() }, app.EventScope(a.ID))
	}
	var out []app.UI
	if a.State == feedback.AlertOpen {
		out = append(out, button("ack", "Acknowledge", func() { x.acknowledge(a) }))
	}
	out = append(out, button("resolve", "Resolve", func() {
		x.resolving, x.note, x.notice = a.ID, "", ""
		focusLater(x.req.ui, "note-"+a.ID)
	}))
	return app.Div().Class("actions").Body(out...)
}

// renderResolve asks for an optional note, then resolves.
func (x *alertActs) renderResolve(a feedback.Alert) app.UI {
	id := "note-" + a.ID
	return app.Div().Class("confirm", "resolve-form").Role("group").Aria("label", "Resolve the alert "+a.RuleName).Body(
		app.Label().For(id).Text("Resolution note (optional)"),
		app.P().ID(id+"-hint").Class("hint").Text("What was done, for the history: for example “Cleaned, soap refilled”."),
		app.Textarea().ID(id).Rows(2).MaxLength(2000).Aria("describedby", id+"-hint").
			OnInput(func(ctx app.Context, e app.Event) { x.note = ctx.JSSrc().Get("value").String() }, app.EventScope(a.ID)),
		app.Div().Class("actions").Body(
			disabledIf(app.Button().ID("resolve-yes-"+a.ID).Type("button").Class("primary").Text("Resolve alert"), x.busy != "").
				OnClick(func(ctx app.Context, e app.Event) { x.resolve(a) }, app.EventScope(a.ID)),
			app.Button().ID("resolve-no-"+a.ID).Type("button").Text("Cancel").
				OnClick(func(ctx app.Context, e app.Event) {
					x.resolving, x.note = "", ""
					focusLater(x.req.ui, "resolve-"+a.ID)
				}, app.EventScope(a.ID)),
		),
	)
}

// alertPath returns the page of alert id.
func alertPath(slug, id string) string { return overviewPath(slug) + alertsPath + "/" + id }

// Paths of the alerts pages below /w/{slug}/.
const (
	alertsPath     = "alerts"
	alertRulesPath = "alerts/rules"
)

// stateNames names each state of an alert for people.
var stateNames = map[string]string{
	feedback.AlertOpen:         "Open",
	feedback.AlertAcknowledged: "Acknowledged",
	feedback.AlertResolved:     "Resolved",
}

// alertState shows the state of a.
func alertState(a feedback.Alert) app.UI {
	return app.Span().Class("alert-state", "alert-"+a.State).Text(stateNames[a.State])
}
