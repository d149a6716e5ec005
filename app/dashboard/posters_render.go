package dashboard

import (
	"time"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"github.com/feedbackhq/feedback/shared/feedback"
)

// Render renders the page: the location picker, the form that makes a
// poster, then the location's posters.
func (p *postersPage) Render() app.UI {
	return app.Section().Class("places").Body(
		title("Posters"),
		app.P().Text("A poster is a printed QR code: visitors scan it to open a form at the location, with no account."),
		problemBox("posters-problem", p.problem),
		app.If(p.cat.loaded && len(p.cat.locs) == 0, func() app.UI {
			return app.P().ID("posters-no-location").Body(app.Text("Posters belong to a location, and there is none yet. "),
				app.A().Href(overviewPath(p.Workspace.Slug)+"locations").Text("Create a location first"), app.Text("."))
		}).ElseIf(p.cat.loaded, func() app.UI {
			return app.Div().Body(p.renderPicker(),
				writeOr(p.Workspace, "posters-readonly", "Viewers can open and download the posters; an admin can make or revoke them.", p.renderCreate),
				p.renderList())
		}).Else(func() app.UI {
			return app.P().Role("status").Text("Loading the locations…")
		}),
	)
}

// renderPicker chooses the location whose posters are shown.
func (p *postersPage) renderPicker() app.UI {
	return app.Div().Class("filters").Body(app.Div().Body(
		app.Label().For("poster-location").Text("Location"),
		app.Select().ID("poster-location").OnChange(func(ctx app.Context, e app.Event) { p.choose(chosen(ctx)) }).Body(
			app.Range(p.cat.locs).Slice(func(i int) app.UI {
				return option(p.cat.locs[i].ID, p.cat.locs[i].Name, p.loc == p.cat.locs[i].ID)
			}),
		),
	))
}

// renderCreate is the form that makes a poster at the chosen location.
func (p *postersPage) renderCreate() app.UI {
	b := app.Button().ID("create-poster").Type("submit").Class("primary", "inline").Text("Make the poster")
	if p.creating {
		b = b.Disabled(true).Text("Making…")
	}
	formErr := p.createErr["form"] + p.createErr["review_id"] + p.createErr["survey_id"]
	sel := app.Select().ID("poster-form").OnChange(func(ctx app.Context, e app.Event) { p.form = chosen(ctx) }).
		Body(p.cat.formOptions(p.form)...)
	if formErr != "" {
		sel = sel.Aria("invalid", "true").Aria("describedby", "poster-form-error")
	}
	return app.Form().ID("new-poster").Class("create-form").Aria("labelledby", "new-poster-title").
		OnSubmit(func(ctx app.Context, e app.Event) { e.PreventDefault(); p.create(ctx) }).Body(
		app.H2().ID("new-poster-title").Text("New poster at "+p.cat.locationName(p.loc)),
		problemBox("create-problem", p.createMsg),
		app.Div().Class("field").Body(
			app.Label().For("poster-form").Text("Form"),
			sel,
			app.If(formErr != "", func() app.UI {
				return app.P().ID("poster-form-error").Class("field-error").Text("The form " + formErr + ".")
			}),
		),
		field("poster-label", "Label (optional)", "Printed under the QR code, for example: Sinks, left side.", p.createErr["label"],
			feedback.MaxPosterLabel, func(v string) { p.label = v }),
		b,
	)
}

// renderList is the chosen location's posters, newest first.
func (p *postersPage) renderList() app.UI {
	status := p.notice
	switch {
	case status != "":
	case !p.loaded:
		status = "Loading the posters…"
	case len(p.posters) == 0:
		status = "This location has no poster yet."
		if canWrite(p.Workspace) {
			status += " Make one above."
		}
	}
	return app.Div().Body(
		app.H2().ID("posters-title").Text("Posters at "+p.cat.locationName(p.loc)),
		app.P().ID(statusID).Role("status").TabIndex(-1).Text(status),
		app.If(p.loaded && len(p.posters) > 0, func() app.UI {
			return app.Div().Body(
				app.Div().Class("filters").Body(app.Div().Body(
					app.Label().For("qr-size").Text("Size of the QR code images"),
					app.Select().ID("qr-size").OnChange(func(ctx app.Context, e app.Event) { p.qrSize = chosen(ctx) }).Body(
						app.Range(qrSizes).Slice(func(i int) app.UI {
							return option(qrSizes[i], qrSizes[i]+" × "+qrSizes[i]+" pixels", p.qrSize == qrSizes[i])
						}),
					),
				)),
				p.renderPrintAll(),
				app.Ul().ID("posters").Class("cards").Body(
					app.Range(p.posters).Slice(func(i int) app.UI { return p.renderPoster(p.posters[i]) }),
				),
			)
		}),
	)
}

// renderPrintAll opens one PDF of the location's active posters, a page
// each, to print them at once; nothing when there is none.
func (p *postersPage) renderPrintAll() app.UI {
	var ids []string
	for _, ps := range p.posters {
		if ps.Status == feedback.PosterActive && len(ids) < feedback.MaxPrintPosters {
			ids = append(ids, ps.ID)
		}
	}
	if len(ids) == 0 {
		return app.If(false, nil)
	}
	return app.P().Class("buttons").Body(
		fileLink(&p.requests, p.api, "print-all", p.api.PostersPrintPath(ids), "posters.pdf",
			"Print "+plural(len(ids), "active poster", "active posters")+" (one PDF)", false, p.fileFailed).Class("button", "inline"),
	)
}

// renderPoster is one poster: what it shows, its state, its files, and
// revocation with its confirmation.
func (p *postersPage) renderPoster(ps feedback.Poster) app.UI {
	name := posterName(&p.cat, ps)
	li := app.Li().ID("poster-"+ps.ID).Class("card").DataSet("poster", ps.ID)
	if ps.Status == feedback.PosterRevoked {
		return li.Class("revoked").Body(
			app.H3().Text(name),
			app.P().Class("hint").Text(p.cat.formName(ps.FormRef)+" · made "+dateOf(ps.CreatedAt.Time)),
			app.P().Class("poster-state").Text(revokedNote(ps)),
		)
	}
	size := p.qrSize
	fail := p.fileFailed
	return li.Body(
		app.H3().Text(name),
		app.P().Class("hint").Text(p.cat.formName(ps.FormRef)+" · made "+dateOf(ps.CreatedAt.Time)),
		app.P().Class("poster-state").Text("Active: its QR code opens the form."),
		app.Div().Class("buttons").Body(
			fileLink(&p.requests, p.api, "pdf-open-"+ps.ID, p.api.PosterPDFPath(ps.ID), "poster-"+ps.ID+".pdf",
				"Open the PDF", false, fail).Aria("label", "Open the PDF of "+name),
			fileLink(&p.requests, p.api, "pdf-download-"+ps.ID, p.api.PosterPDFPath(ps.ID), "poster-"+ps.ID+".pdf",
				"Download the PDF", true, fail).Aria("label", "Download the PDF of "+name),
			fileLink(&p.requests, p.api, "qr-download-"+ps.ID, p.api.PosterQRPath(ps.ID, atoi(size)), "qr-"+ps.ID+"-"+size+".png",
				"Download the QR code (PNG)", true, fail).Aria("label", "Download the QR code of "+name+" as a PNG image"),
			fileLink(&p.requests, p.api, "qr-svg-"+ps.ID, p.api.PosterQRSVGPath(ps.ID, atoi(size)), "qr-"+ps.ID+".svg",
				"Download the QR code (SVG)", true, fail).Aria("label", "Download the QR code of "+name+" as an SVG image, for print at any size"),
			writeOnly(p.Workspace, func() app.UI {
				return app.Button().Type("button").Class("inline", "danger").Aria("label", "Revoke "+name).Text("Revoke").
					OnClick(func(ctx app.Context, e app.Event) { p.revoking = ps.ID; focusLater(ctx, "confirm-revoke") }, app.EventScope(ps.ID))
			}),
		),
		app.If(p.revoking == ps.ID, func() app.UI { return p.renderConfirm(ps, name) }),
	)
}

// renderConfirm asks to confirm a revocation, saying what it does.
func (p *postersPage) renderConfirm(ps feedback.Poster, name string) app.UI {
	yes := app.Button().ID("confirm-revoke-yes").Type("button").Class("danger", "inline").Text("Revoke the poster")
	yes = disabledIf(yes, p.busy).OnClick(func(ctx app.Context, e app.Event) { p.revoke(ctx, ps) }, app.EventScope(ps.ID))
	return app.Div().ID("confirm-revoke").Class("confirm").Role("group").Aria("labelledby", "confirm-revoke-title").TabIndex(-1).Body(
		app.H4().ID("confirm-revoke-title").Text("Revoke "+name+"?"),
		app.P().Text("Its QR code stops opening the form at once; take the printed poster down. "+
			"Reports that visitors started before, such as from a phone that was offline, are still accepted for 7 days. "+
			"A revoked poster cannot be made active again: make a new one instead."),
		app.Div().Class("buttons").Body(
			yes,
			app.Button().ID("confirm-revoke-no").Type("button").Class("inline").Text("Keep it").
				OnClick(func(ctx app.Context, e app.Event) { p.revoking = ""; focusLater(ctx, statusID) }),
		),
	)
}

// revokedNote says when a poster was revoked and until when reports
// captured before are accepted.
func revokedNote(ps feedback.Poster) string {
	if ps.RevokedAt == nil {
		return "Revoked."
	}
	until := ps.RevokedAt.Time.Add(feedback.RevokedGrace)
	note := "Revoked " + dateOf(ps.RevokedAt.Time) + ". "
	if time.Now().Before(until) {
		return note + "Reports captured before then are accepted until " + dateOf(until) + "."
	}
	return note + "It accepts no more reports."
}
