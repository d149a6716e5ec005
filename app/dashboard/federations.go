package dashboard

import (
	"context"
	"strings"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"github.com/feedbackhq/feedback/shared/feedback"
)

// federationsPage is Settings > Identity federation: the organisations'
// OpenID providers and SAML IdPs through which the embedded provider
// signs in the addresses of their domains. A platform owner (Owner)
// lists, adds and removes them; anybody else reads that only an owner
// can.
type federationsPage struct {
	app.Compo
	requests
	Shell *Shell
	Owner bool

	items   []feedback.Federation
	loaded  bool
	loading bool
	absent  bool // the installation signs in through an external provider: no federations
	form    federationForm
	fresh   *feedback.Federation // the federation just added, with what to register
	asking  string               // the id of the federation whose removal is asked
	busy    bool                 // a removal is under way
	notice  string               // what the last action did, announced
	problem string               // why the last request failed
}

// OnMount loads the federations of a platform owner.
func (p *federationsPage) OnMount(ctx app.Context) {
	p.mount(ctx)
	if app.IsClient && p.Owner {
		p.load()
	}
}

// OnDismount cancels the page's requests.
func (p *federationsPage) OnDismount() { p.dismount() }

func (p *federationsPage) load() {
	if p.loading {
		return
	}
	p.loading = true
	p.async(func(c context.Context) func(app.Context) {
		page, err := api.Federations(c)
		return func(ctx app.Context) {
			p.loading = false
			err = explain(err)
			p.absent = hasStatus(err, 404)
			if p.failed(err, "The federations could not be loaded: ") {
				return
			}
			p.items, p.loaded = page.Data, true
		}
	})
}

// failed shows err, prefixed, and reports whether there was one.
func (p *federationsPage) failed(err error, prefix string) bool {
	return p.Shell.refused(err, prefix, func(msg string) {
		p.problem = msg
		focusLater(p.ui, "federations-problem")
	})
}

// remove removes the federation whose removal was confirmed.
func (p *federationsPage) remove(f feedback.Federation) {
	if p.busy {
		return
	}
	p.busy, p.asking, p.notice, p.problem = true, "", "", ""
	p.async(func(c context.Context) func(app.Context) {
		err := explain(api.RemoveFederation(c, f.ID))
		return func(ctx app.Context) {
			p.busy = false
			if p.failed(err, "The federation was not removed: ") {
				return
			}
			if p.fresh != nil && p.fresh.ID == f.ID {
				p.fresh = nil
			}
			p.notice = "Removed " + f.Name + ". People at " + strings.Join(f.Domains, ", ") + " no longer sign in through it."
			focusLater(ctx, "federations-status")
			p.load()
		}
	})
}

// ask opens the confirmation of a federation's removal.
func (p *federationsPage) ask(f feedback.Federation) {
	p.asking, p.notice = f.ID, ""
	focusLater(p.ui, "confirm-remove-q")
}

// added shows the federation just added and what to register for it.
func (p *federationsPage) added(ctx app.Context, f *feedback.Federation) {
	p.fresh, p.notice = f, ""
	p.items = append(p.items, *f)
	focusLater(ctx, "new-federation-title")
}
