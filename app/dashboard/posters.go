package dashboard

import (
	"context"
	"net/url"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"github.com/feedbackhq/feedback/shared/client"
	"github.com/feedbackhq/feedback/shared/feedback"
)

// postersPage is a location's posters at /w/{slug}/posters, the location
// chosen on the page (or by ?location=ID, as the locations page links):
// the list, with each poster's PDF and QR code, a form that makes one,
// and revocation. Shell is the frame it is shown in.
type postersPage struct {
	app.Compo
	requests
	Shell     *Shell
	Workspace *feedback.Membership

	api     *client.Client
	cat     catalog
	loc     string // the chosen location's id
	posters []feedback.Poster
	loaded  bool // posters holds the chosen location's
	loading bool
	notice  string
	problem string

	form      string // the form choice of the new poster
	label     string
	creating  bool
	createErr map[string]string
	createMsg string

	qrSize   string // the pixels of the QR code images
	revoking string // the id of the poster whose revocation is asked
	busy     bool   // a revocation is under way
}

// qrSizes are the sizes offered for the QR code image, in pixels.
var qrSizes = []string{"256", "512", "1024", "2048"}

// postersPath returns the posters page of the workspace slug, showing
// the location id.
func postersPath(slug, id string) string {
	return overviewPath(slug) + "posters?location=" + url.QueryEscape(id)
}

// OnMount reads the locations and forms, then the chosen location's
// posters.
func (p *postersPage) OnMount(ctx app.Context) {
	p.mount(ctx)
	p.form, p.qrSize = "hygiene", "512"
	if !app.IsClient || p.Workspace == nil {
		return
	}
	p.api = workspaceAPI(p.Workspace)
	p.loc = ctx.Page().URL().Query().Get("location")
	p.async(func(c context.Context) func(app.Context) {
		cat, err := readCatalog(c, p.api)
		return func(ctx app.Context) {
			if p.failed(err) {
				return
			}
			p.cat = cat
			if p.loc == "" && len(cat.locs) > 0 {
				p.loc = cat.locs[0].ID
			}
			p.loadPosters()
		}
	})
}

// OnDismount cancels the page's requests.
func (p *postersPage) OnDismount() { p.dismount() }

// failed handles a request's error and reports whether there was one.
func (p *postersPage) failed(err error) bool {
	return p.Shell.refused(err, "The posters could not be loaded: ", func(msg string) { p.problem = msg })
}

// choose shows the posters of location id.
func (p *postersPage) choose(id string) {
	p.loc, p.posters, p.loaded, p.notice, p.revoking = id, nil, false, "", ""
	p.loadPosters()
}

// loadPosters reads the chosen location's posters.
func (p *postersPage) loadPosters() {
	if p.loc == "" {
		return
	}
	loc := p.loc
	p.loading = true
	p.async(func(c context.Context) func(app.Context) {
		page, err := p.api.Posters(c, loc, allOf)
		return func(ctx app.Context) {
			if loc != p.loc {
				return // another location was chosen meanwhile
			}
			p.loading = false
			if p.failed(explain(err)) {
				return
			}
			p.posters, p.loaded, p.problem = page.Data, true, ""
		}
	})
}

// create makes a poster for the chosen form at the chosen location.
func (p *postersPage) create(ctx app.Context) {
	if p.creating || p.loc == "" {
		return
	}
	p.creating, p.createErr, p.createMsg, p.notice = true, nil, "", ""
	loc, in := p.loc, feedback.PosterInput{FormRef: formRef(p.form), Label: p.label}
	p.async(func(c context.Context) func(app.Context) {
		ps, err := p.api.CreatePoster(c, loc, in)
		return func(ctx app.Context) {
			p.creating = false
			if err != nil {
				p.Shell.refusedForm(ctx, err, "The poster was not made: ", "create-problem", &p.createErr, &p.createMsg)
				return
			}
			p.label = ""
			clearInput("poster-label")
			p.notice = "Made a poster for " + p.cat.formName(ps.FormRef) + ". Open its PDF to print it."
			focusLater(ctx, statusID)
			p.loadPosters()
		}
	})
}

// revoke revokes the poster whose revocation was confirmed.
func (p *postersPage) revoke(ctx app.Context, ps feedback.Poster) {
	if p.busy {
		return
	}
	p.busy = true
	p.async(func(c context.Context) func(app.Context) {
		_, err := p.api.RevokePoster(c, ps.ID)
		err = explain(err)
		return func(ctx app.Context) {
			p.busy, p.revoking = false, ""
			switch {
			case p.Shell.gone(err):
				return
			case err != nil:
				p.notice = "The poster was not revoked: " + err.Error()
			default:
				p.notice = "Revoked the poster " + posterName(&p.cat, ps) + ". Its QR code no longer opens the form."
			}
			focusLater(ctx, statusID)
			p.loadPosters()
		}
	})
}

// posterName names a poster: its label, else its form.
func posterName(c *catalog, ps feedback.Poster) string {
	if ps.Label != "" {
		return ps.Label
	}
	return c.formName(ps.FormRef)
}

// fileFailed tells why a poster's file could not be opened.
func (p *postersPage) fileFailed(err error) {
	p.Shell.refused(err, "The file could not be opened: ", func(msg string) { p.notice = msg })
}
