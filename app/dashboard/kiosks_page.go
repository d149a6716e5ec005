package dashboard

import (
	"context"
	"time"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"github.com/feedbackhq/feedback/shared/client"
	"github.com/feedbackhq/feedback/shared/feedback"
)

// kiosksPage is a workspace's kiosks at /w/{slug}/kiosks: a pairing code
// for a new one, shown large with its expiry counting down, and the
// kiosks with their presence, which can be unpaired. Shell is the frame
// it is shown in.
type kiosksPage struct {
	app.Compo
	requests
	Shell     *Shell
	Workspace *feedback.Membership

	api     *client.Client
	cat     catalog
	kiosks  kioskList
	now     time.Time // the clock of the countdown, ticked every second
	notice  string
	problem string

	loc, form, name string // the new kiosk's place, form and name
	code            *feedback.PairingCode
	creating        bool
	createErr       map[string]string
	createMsg       string

	unpairing string // the id of the kiosk whose unpairing is asked
	busy      bool
}

// How often the kiosks are read again: often while a code waits for its
// kiosk, so that it shows soon after pairing.
const (
	kiosksEvery        = 15 * time.Second
	kiosksPairingEvery = 2 * time.Second
)

// OnMount reads the locations, forms and kiosks, and starts the clock.
func (p *kiosksPage) OnMount(ctx app.Context) {
	p.mount(ctx)
	p.form, p.now = "hygiene", time.Now()
	if !app.IsClient || p.Workspace == nil {
		return
	}
	p.api = workspaceAPI(p.Workspace)
	p.async(func(c context.Context) func(app.Context) {
		cat, err := readCatalog(c, p.api)
		return func(ctx app.Context) {
			if p.failed(err) {
				return
			}
			p.cat = cat
			if len(cat.locs) > 0 {
				p.loc = cat.locs[0].ID
			}
		}
	})
	p.loadKiosks()
	go p.tick(p.context())
}

// OnDismount stops the clock and the requests.
func (p *kiosksPage) OnDismount() { p.dismount() }

// tick moves the countdown every second and reads the kiosks again.
func (p *kiosksPage) tick(c context.Context) {
	t := time.NewTicker(time.Second)
	defer t.Stop()
	last := time.Now()
	for {
		select {
		case <-c.Done():
			return
		case now := <-t.C:
			p.ui.Dispatch(func(ctx app.Context) {
				p.now = now
				every := kiosksEvery
				if p.codeLeft() > 0 {
					every = kiosksPairingEvery
				}
				if now.Sub(last) >= every {
					last = now
					p.loadKiosks()
				}
			})
		}
	}
}

// codeLeft is how long the pairing code shown can still be used.
func (p *kiosksPage) codeLeft() time.Duration {
	if p.code == nil {
		return 0
	}
	return max(0, p.code.ExpiresAt.Time.Sub(p.now))
}

// failed handles a request's error and reports whether there was one.
func (p *kiosksPage) failed(err error) bool {
	return p.Shell.refused(err, "The kiosks could not be loaded: ", func(msg string) { p.problem = msg })
}

// loadKiosks reads the kiosks.
func (p *kiosksPage) loadKiosks() {
	if p.kiosks.reading {
		return
	}
	p.kiosks.reading = true
	p.async(func(c context.Context) func(app.Context) {
		page, err := p.api.Kiosks(c, allOf)
		return func(ctx app.Context) {
			p.kiosks.reading = false
			if p.failed(explain(err)) {
				return
			}
			p.problem = ""
			p.kiosks.set(page.Data)
		}
	})
}

// createCode makes a pairing code for the chosen location and form.
func (p *kiosksPage) createCode(ctx app.Context) {
	if p.creating {
		return
	}
	p.creating, p.createErr, p.createMsg, p.notice = true, nil, "", ""
	in := feedback.PairingCodeInput{LocationID: p.loc, FormRef: formRef(p.form), Name: p.name}
	p.async(func(c context.Context) func(app.Context) {
		code, err := p.api.CreatePairingCode(c, in)
		return func(ctx app.Context) {
			p.creating = false
			if err != nil {
				p.Shell.refusedForm(ctx, err, "No pairing code was made: ", "pair-problem", &p.createErr, &p.createMsg)
				return
			}
			p.code, p.now = code, time.Now()
			focusLater(ctx, "pairing-code")
		}
	})
}

// unpair revokes the kiosk whose unpairing was confirmed.
func (p *kiosksPage) unpair(ctx app.Context, k feedback.Kiosk) {
	if p.busy {
		return
	}
	p.busy = true
	p.async(func(c context.Context) func(app.Context) {
		err := explain(p.api.RevokeKiosk(c, k.ID))
		return func(ctx app.Context) {
			p.busy, p.unpairing = false, ""
			switch {
			case p.Shell.gone(err):
				return
			case err != nil && !hasStatus(err, 404):
				p.notice = "The kiosk was not unpaired: " + err.Error()
			default:
				p.notice = "Unpaired " + kioskName(k) + ". The service refuses it from its next contact; pair it again to use it."
			}
			focusLater(ctx, statusID)
			p.loadKiosks()
		}
	})
}

// kioskName names a kiosk for people.
func kioskName(k feedback.Kiosk) string {
	if k.Name == "" {
		return "the kiosk"
	}
	return k.Name
}
