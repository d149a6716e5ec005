package dashboard

import (
	"context"
	"crypto/rand"
	"encoding/base64"
	"strings"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"github.com/feedbackhq/feedback/shared/client"
	"github.com/feedbackhq/feedback/shared/feedback"
)

// webhooksPage is Settings > Integrations > Webhooks: the workspace's
// subscriptions, their delivery log, and (for admins and owners) the
// ways to create, test, pause, rotate and delete them.
type webhooksPage struct {
	app.Compo
	requests
	Shell     *Shell
	Workspace *feedback.Membership

	api     *client.Client
	items   []feedback.WebhookSubscription
	loaded  bool
	loading bool
	form    webhookForm
	secret  *shownSecret // a secret just made, shown once
	asking  string       // "delete:" or "rotate:" and the id of the subscription asked about
	busy    bool         // a change is under way
	notice  string       // what the last action did, announced
	problem string       // why the last request failed
	log     deliveryLog  // the deliveries of one subscription
}

// webhookForm is what is typed for a new subscription.
type webhookForm struct {
	url    string
	events map[string]bool // the chosen kinds; feedback.AllEvents for all
}

// shownSecret is a signing secret the dashboard made, for the
// subscription whose URL it names.
type shownSecret struct {
	url, value string
	rotated    bool
}

// OnMount loads the subscriptions.
func (p *webhooksPage) OnMount(ctx app.Context) {
	p.mount(ctx)
	p.form.events = map[string]bool{}
	if !app.IsClient || p.Workspace == nil {
		return
	}
	p.api = workspaceAPI(p.Workspace)
	p.load()
}

// OnDismount cancels the page's requests and the log's polling.
func (p *webhooksPage) OnDismount() { p.dismount() }

func (p *webhooksPage) load() {
	if p.loading {
		return
	}
	p.loading = true
	p.async(func(c context.Context) func(app.Context) {
		page, err := p.api.Webhooks(c, allOf)
		err = explain(err)
		return func(ctx app.Context) {
			p.loading = false
			if p.failed(err, "The webhooks could not be loaded: ") {
				return
			}
			p.items, p.loaded = page.Data, true
		}
	})
}

// failed shows err, prefixed, and reports whether there was one; a
// session that is gone signs the user out.
func (p *webhooksPage) failed(err error, prefix string) bool {
	return p.Shell.refused(err, prefix, func(msg string) {
		p.problem = msg
		focusLater(p.ui, "webhooks-problem")
	})
}

// newSecret makes a signing secret: whsec_ and base64 of 32 random
// bytes, as the server would.
func newSecret() string {
	b := make([]byte, 32)
	_, _ = rand.Read(b)
	return feedback.SecretPrefix + base64.StdEncoding.EncodeToString(b)
}

// chosenEvents returns the event kinds ticked in the form, in the order
// of feedback.EventKinds.
func (f *webhookForm) chosenEvents() []string {
	if f.events[feedback.AllEvents] {
		return []string{feedback.AllEvents}
	}
	var out []string
	for _, k := range feedback.EventKinds {
		if f.events[k] {
			out = append(out, k)
		}
	}
	return out
}

// create subscribes the URL typed to the events ticked, with a secret
// made here so that it can be shown once.
func (p *webhooksPage) create(ctx app.Context, e app.Event) {
	e.PreventDefault()
	if p.busy {
		return
	}
	in := feedback.WebhookInput{URL: strings.TrimSpace(p.form.url), Events: p.form.chosenEvents(), Secret: newSecret()}
	switch {
	case in.URL == "":
		p.problem = "Give the URL that receives the events."
		focusLater(p.ui, "webhook-url")
		return
	case len(in.Events) == 0:
		p.problem = "Choose at least one event, or all events."
		focusLater(p.ui, "event-all")
		return
	}
	p.busy, p.notice, p.problem, p.secret = true, "", "", nil
	p.async(func(c context.Context) func(app.Context) {
		w, err := p.api.CreateWebhook(c, in)
		err = explainFields(err)
		return func(ctx app.Context) {
			p.busy = false
			if p.failed(err, "The webhook was not created: ") {
				return
			}
			p.secret = &shownSecret{url: w.URL, value: in.Secret}
			p.form = webhookForm{events: map[string]bool{}}
			clearForm()
			p.items = append([]feedback.WebhookSubscription{*w}, p.items...)
			focusLater(p.ui, "new-secret-title")
		}
	})
}

// clearForm empties the create form's inputs, which go-app cannot
// (GOAPP.md: inputs cannot be cleared with Value("")).
func clearForm() {
	doc := app.Window().Get("document")
	if el := doc.Call("getElementById", "webhook-url"); el.Truthy() {
		el.Set("value", "")
	}
	boxes := doc.Call("querySelectorAll", "#webhook-form input[type=checkbox]")
	for i := 0; i < boxes.Length(); i++ {
		boxes.Index(i).Set("checked", false)
	}
}
