package dashboard

import (
	"strings"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"github.com/feedbackhq/feedback/shared/feedback"
)

// Settings > Integrations: the API tokens and webhooks of a workspace.
// The interface spec names them Global Settings, Integrations, API
// Tokens; in the API both belong to one workspace (Feedback-Workspace),
// so the pages live below /w/{slug}/ and name the workspace they manage.
const (
	tokensPath   = "integrations/tokens"
	webhooksPath = "integrations/webhooks"
)

// integrationsHead is the heading of an Integrations page: where it is
// in the settings, its title, and the links between the two pages.
func integrationsHead(ws *feedback.Membership, current, heading string) app.UI {
	base := overviewPath(ws.Slug)
	link := func(path, text string) app.UI {
		a := app.A().Href(base + path).Text(text)
		if path == current {
			a = a.Aria("current", "page")
		}
		return app.Li().Body(a)
	}
	return app.Div().Class("integrations-head").Body(
		app.P().Class("crumbs").Text("Settings › Integrations · "+ws.Name),
		title(heading),
		app.Nav().Class("subnav").Aria("label", "Integrations").Body(app.Ul().Body(
			link(tokensPath, "API tokens"),
			link(webhooksPath, "Webhooks"),
		)),
	)
}

// copyButton copies the value of the input id to the clipboard and says
// so in the status element statusID.
func copyButton(id, label, status string) app.UI {
	return app.Button().Type("button").Class("copy").Text("Copy").Aria("label", label).
		OnClick(func(ctx app.Context, e app.Event) { copyValue(id, status) }, app.EventScope(id))
}

// copyValue writes the value of the input id to the clipboard, selecting
// it as well so that it can be copied by hand when the clipboard is
// refused.
func copyValue(id, status string) {
	doc := app.Window().Get("document")
	in, out := doc.Call("getElementById", id), doc.Call("getElementById", status)
	if !in.Truthy() {
		return
	}
	in.Call("select")
	say := func(text string) {
		if out.Truthy() {
			out.Set("textContent", text)
		}
	}
	clip := app.Window().Get("navigator").Get("clipboard")
	if !clip.Truthy() {
		say("Copying is not available here: the value is selected, copy it with the keyboard.")
		return
	}
	var done, failed app.Func
	release := func() { done.Release(); failed.Release() }
	done = app.FuncOf(func(this app.Value, args []app.Value) any { say("Copied."); release(); return nil })
	failed = app.FuncOf(func(this app.Value, args []app.Value) any {
		say("The browser refused to copy: the value is selected, copy it with the keyboard.")
		release()
		return nil
	})
	clip.Call("writeText", in.Get("value")).Call("then", done, failed)
}

// confirmBox asks before a destructive action: the question, a button
// that does it and one that does not. The question takes the focus when
// the box opens (see focusLater). scope is the id of what it is about:
// go-app keeps an element's handler while its function is the same code
// and its scope the same, so a handler that closes over a list's item
// needs the item's id as its scope, or a row would keep the handler of
// the item it showed before.
func confirmBox(id, question, scope, yes string, onYes, onNo func()) app.UI {
	return app.Div().ID(id).Class("confirm").Role("group").Aria("labelledby", id+"-q").Body(
		app.P().ID(id+"-q").TabIndex(-1).Text(question),
		app.Div().Class("actions").Body(
			app.Button().ID(id+"-yes").Type("button").Class("danger").Text(yes).
				OnClick(func(ctx app.Context, e app.Event) { onYes() }, app.EventScope(scope)),
			app.Button().ID(id+"-no").Type("button").Text("Cancel").
				OnClick(func(ctx app.Context, e app.Event) { onNo() }, app.EventScope(scope)),
		),
	)
}

// problemBox shows why the last request failed. It is always there,
// empty without a problem: go-app matches children by position, so an
// element that comes and goes would replace the form after it, and
// what the person typed with it.
func problemBox(id, text string) app.UI {
	return app.Div().Role("alert").Body(app.If(text != "", func() app.UI {
		return app.Div().Class("errors").Body(app.P().ID(id).TabIndex(-1).Text(text))
	}))
}

// slot keeps a place for content that comes and goes (see problemBox).
func slot(show bool, content func() app.UI) app.UI {
	return app.Div().Body(app.If(show, content))
}

// explainFields is explain, with the reason of each rejected field of a
// 422 (for example "url must use https"), which the problem's detail
// leaves to invalid_params.
func explainFields(err error) error {
	e := explain(err)
	p, ok := err.(*feedback.Problem)
	if !ok || len(p.InvalidParams) == 0 {
		return e
	}
	ae, _ := e.(*apiError)
	if ae == nil {
		return e
	}
	msg := ae.Message
	for _, f := range p.InvalidParams {
		if !strings.Contains(msg, f.Reason) {
			msg += " The " + f.Name + " " + f.Reason + "."
		}
	}
	return &apiError{Status: ae.Status, Message: msg}
}
