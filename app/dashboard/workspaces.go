package dashboard

import (
	"context"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"github.com/feedbackhq/feedback/shared/feedback"
)

// workspacesPage is Settings > Workspaces: every workspace of the
// installation, which a platform owner (Owner) lists and creates.
// Anybody else reads that only an owner can.
type workspacesPage struct {
	app.Compo
	requests
	Shell *Shell
	Owner bool

	items     []feedback.Workspace
	loaded    bool
	loading   bool
	name      string            // the name typed for a new workspace
	slug      string            // the slug typed, "" to make it from the name
	creating  bool              // a create is under way
	createErr map[string]string // the service's reasons, by field
	createMsg string            // why the last create failed
	notice    string            // what the last action did, announced
	problem   string            // why the list could not be loaded
}

// OnMount loads the workspaces of a platform owner.
func (p *workspacesPage) OnMount(ctx app.Context) {
	p.mount(ctx)
	if app.IsClient && p.Owner {
		p.load()
	}
}

// OnDismount cancels the page's requests.
func (p *workspacesPage) OnDismount() { p.dismount() }

func (p *workspacesPage) load() {
	if p.loading {
		return
	}
	p.loading = true
	p.async(func(c context.Context) func(app.Context) {
		page, err := api.Workspaces(c)
		return func(ctx app.Context) {
			p.loading = false
			if p.Shell.refused(explain(err), "The workspaces could not be loaded: ", func(msg string) { p.problem = msg }) {
				return
			}
			p.items, p.loaded, p.problem = page.Data, true, ""
		}
	})
}

// create makes the workspace named in the form.
func (p *workspacesPage) create(ctx app.Context, e app.Event) {
	e.PreventDefault()
	if p.creating {
		return
	}
	p.creating, p.createErr, p.createMsg, p.notice = true, nil, "", ""
	in := feedback.WorkspaceInput{Name: p.name, Slug: p.slug}
	p.async(func(c context.Context) func(app.Context) {
		ws, err := api.CreateWorkspace(c, in)
		return func(ctx app.Context) {
			p.creating = false
			if err != nil {
				p.Shell.refusedForm(ctx, err, "The workspace was not created: ", "create-problem", &p.createErr, &p.createMsg)
				return
			}
			p.name, p.slug = "", ""
			clearInput("new-workspace-name")
			clearInput("new-workspace-slug")
			p.items = append(p.items, *ws)
			p.notice = "Created the workspace " + ws.Name + ", at " + overviewPath(ws.Slug) + "."
			focusLater(ctx, "workspaces-status")
			p.Shell.refreshMe() // the switcher offers it
		}
	})
}
