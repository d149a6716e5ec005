package dashboard

import (
	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"github.com/feedbackhq/feedback/shared/client"
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

// workspaceAPI returns the API as the signed-in user in the workspace
// slug.
func workspaceAPI(slug string) *client.Client {
	c := *api
	c.Workspace = slug
	return &c
}

// canWrite reports whether the role may change webhooks (and the other
// things an admin manages): viewers only read.
func canWrite(m *feedback.Membership) bool {
	return m != nil && (m.Role == feedback.RoleAdmin || m.Role == feedback.RoleOwner)
}

// isOwner reports whether the role may use the owner-only endpoints,
// /tokens among them.
func isOwner(m *feedback.Membership) bool {
	return m != nil && m.Role == feedback.RoleOwner
}

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
		OnClick(func(ctx app.Context, e app.Event) { copyValue(id, status) })
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
// the box opens (see focusLater).
func confirmBox(id, question, yes string, onYes, onNo func()) app.UI {
	return app.Div().ID(id).Class("confirm").Role("group").Aria("labelledby", id+"-q").Body(
		app.P().ID(id+"-q").TabIndex(-1).Text(question),
		app.Div().Class("actions").Body(
			app.Button().ID(id+"-yes").Type("button").Class("danger").Text(yes).
				OnClick(func(ctx app.Context, e app.Event) { onYes() }),
			app.Button().ID(id+"-no").Type("button").Text("Cancel").
				OnClick(func(ctx app.Context, e app.Event) { onNo() }),
		),
	)
}

// problemBox shows why the last request failed.
func problemBox(id, text string) app.UI {
	return app.If(text != "", func() app.UI {
		return app.Div().Class("errors").Role("alert").Body(app.P().ID(id).TabIndex(-1).Text(text))
	})
}
