package dashboard

import (
	"context"
	"strings"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"github.com/feedbackhq/feedback/shared/client"
	"github.com/feedbackhq/feedback/shared/feedback"
)

// tokensPage is Settings > Integrations > API tokens: the workspace's
// tokens, which a platform owner creates (the value shown once) and
// revokes. Anybody else reads why they cannot.
type tokensPage struct {
	app.Compo
	requests
	Shell     *Shell
	Workspace *feedback.Membership

	api     *client.Client
	items   []feedback.APIToken
	loaded  bool
	loading bool
	name    string                // the name typed for a new token
	fresh   *feedback.NewAPIToken // the token just created, with its value
	asking  string                // the id of the token whose revocation is asked
	busy    bool                  // a create or revoke is under way
	notice  string                // what the last action did, announced
	problem string                // why the last request failed
}

// OnMount loads the tokens of a platform owner.
func (p *tokensPage) OnMount(ctx app.Context) {
	p.mount(ctx)
	if !app.IsClient || !isOwner(p.Workspace) {
		return
	}
	p.api = workspaceAPI(p.Workspace)
	p.load()
}

// OnDismount cancels the page's requests.
func (p *tokensPage) OnDismount() { p.dismount() }

func (p *tokensPage) load() {
	if p.loading {
		return
	}
	p.loading = true
	p.async(func(c context.Context) func(app.Context) {
		page, err := p.api.Tokens(c)
		err = explain(err)
		return func(ctx app.Context) {
			p.loading = false
			if p.failed(err, "The tokens could not be loaded: ") {
				return
			}
			p.items, p.loaded = page.Data, true
		}
	})
}

// failed shows err, prefixed, and reports whether there was one; a
// session that is gone signs the user out.
func (p *tokensPage) failed(err error, prefix string) bool {
	return p.Shell.refused(err, prefix, func(msg string) {
		p.problem = msg
		focusLater(p.ui, "tokens-problem")
	})
}

// create makes a token with the name typed.
func (p *tokensPage) create(ctx app.Context, e app.Event) {
	e.PreventDefault()
	name := strings.TrimSpace(p.name)
	if p.busy {
		return
	}
	if name == "" {
		p.problem = "Give the token a name: what it is for."
		focusLater(p.ui, "token-name")
		return
	}
	p.busy, p.notice, p.problem, p.fresh = true, "", "", nil
	p.async(func(c context.Context) func(app.Context) {
		t, err := p.api.CreateToken(c, name)
		err = explainFields(err)
		return func(ctx app.Context) {
			p.busy = false
			if p.failed(err, "The token was not created: ") {
				return
			}
			p.fresh, p.name = t, ""
			app.Window().GetElementByID("token-name").Set("value", "")
			p.items = append([]feedback.APIToken{t.APIToken}, p.items...)
			focusLater(p.ui, "new-token-title")
		}
	})
}

// revoke revokes the token whose revocation was confirmed.
func (p *tokensPage) revoke(t feedback.APIToken) {
	if p.busy {
		return
	}
	p.busy, p.asking, p.notice, p.problem = true, "", "", ""
	p.async(func(c context.Context) func(app.Context) {
		err := explain(p.api.RevokeToken(c, t.ID))
		return func(ctx app.Context) {
			p.busy = false
			if p.failed(err, "The token was not revoked: ") {
				return
			}
			if p.fresh != nil && p.fresh.ID == t.ID {
				p.fresh = nil
			}
			p.notice = "Revoked the token " + t.Name + ". Requests with it are refused from now on."
			focusLater(p.ui, "tokens-status")
			p.load()
		}
	})
}

// ask opens the confirmation of a token's revocation.
func (p *tokensPage) ask(t feedback.APIToken) {
	p.asking, p.notice = t.ID, ""
	focusLater(p.ui, "confirm-revoke-q")
}
