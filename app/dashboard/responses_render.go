package dashboard

import (
	"strconv"
	"strings"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"github.com/feedbackhq/feedback/shared/feedback"
)

// Render renders the filter, the page of responses and the pager.
func (p *responsesPage) Render() app.UI {
	heading := "Responses"
	if p.title != "" {
		heading = "Responses to " + p.title
	}
	back, backText := "reviews", "All reviews"
	if p.kind == feedback.FormSurvey {
		back, backText = "surveys", "All surveys"
	}
	return app.Section().Class("places", "responses").Body(
		title(heading),
		app.P().Body(app.A().ID("back-to-forms").Href(overviewPath(p.Workspace.Slug)+back).Text(backText)),
		problemBox("responses-problem", p.problem),
		app.If(p.problem == "" && !p.cat.loaded, func() app.UI { return app.P().Role("status").Text("Loading the responses…") }),
		app.If(p.cat.loaded, func() app.UI {
			return app.Div().Body(p.renderFilter(), p.renderResults(), p.renderList())
		}),
	)
}

// renderFilter chooses the days and the location.
func (p *responsesPage) renderFilter() app.UI {
	return app.Form().ID("responses-filter").Class("create-form").Aria("labelledby", "filter-title").
		OnSubmit(func(ctx app.Context, e app.Event) { e.PreventDefault(); p.page = 1; p.load() }).Body(
		app.H2().ID("filter-title").Text("Which responses"),
		problemBox("filter-problem", p.listMsg),
		app.Div().Class("filters").Body(
			p.dayField("responses-from", "From (day)", "from", p.from, func(v string) { p.from = v }),
			p.dayField("responses-to", "To (day, included)", "to", p.to, func(v string) { p.to = v }),
			app.Div().Body(
				app.Label().For("responses-location").Text("Location"),
				app.Select().ID("responses-location").OnChange(func(ctx app.Context, e app.Event) { p.loc = chosen(ctx) }).Body(
					append([]app.UI{option("", "All locations", p.loc == "")}, p.locationOptions()...)...),
			),
		),
		app.Button().ID("responses-show").Type("submit").Class("primary", "inline").Text("Show the responses"),
	)
}

// renderDownloads links the export of the responses the list shows, all
// of its pages; the browser saves the file as it streams.
func (p *responsesPage) renderDownloads() app.UI {
	return app.P().Class("buttons", "downloads").Body(
		app.A().ID("export-csv").Class("button", "inline").Href(p.exportHref("csv")).Attr("download", "").
			Text("Download CSV").Aria("label", "Download these responses as CSV (for a spreadsheet), one column per question"),
		app.A().ID("export-ndjson").Class("button", "inline").Href(p.exportHref("ndjson")).Attr("download", "").
			Text("Download NDJSON").Aria("label", "Download these responses as NDJSON (one JSON object per line)"),
	)
}

// dayField is a date input for the list parameter name, holding day:
// the input is made anew when the reason of a refusal shows above it.
func (p *responsesPage) dayField(id, label, name, day string, set func(string)) app.UI {
	in := app.Input().Type("date").ID(id).Name(name).Value(day).
		OnInput(func(ctx app.Context, e app.Event) { set(ctx.JSSrc().Get("value").String()) })
	reason := p.errs[name]
	if reason != "" {
		in = in.Aria("invalid", "true").Aria("describedby", id+"-error")
	}
	return app.Div().Body(
		app.Label().For(id).Text(label),
		in,
		app.If(reason != "", func() app.UI {
			return app.P().ID(id + "-error").Class("field-error").Text(label + " " + reason + ".")
		}),
	)
}

func (p *responsesPage) locationOptions() []app.UI {
	var out []app.UI
	for _, l := range p.cat.locs {
		out = append(out, option(l.ID, l.Name, p.loc == l.ID))
	}
	return out
}

// statusText says which responses are shown.
func (p *responsesPage) statusText() string {
	switch {
	case !p.loaded:
		return "Loading the responses…"
	case p.meta.Total == 0:
		return "No response matches these filters yet. Responses appear here as visitors answer."
	}
	text := "Page " + strconv.Itoa(p.meta.Page) + " of " + strconv.Itoa(max(p.meta.Pages, 1)) + " · " +
		plural(p.meta.Total, "response", "responses") + ", newest first."
	if p.filter.loc != "" {
		text += " At " + p.cat.locationName(p.filter.loc) + "."
	}
	return text
}

// renderList is the page of responses and the pager.
func (p *responsesPage) renderList() app.UI {
	var cards []app.UI
	if p.kind == feedback.FormReview {
		for _, r := range p.reviews {
			cards = append(cards, p.renderReview(r))
		}
	} else {
		for _, r := range p.answers {
			cards = append(cards, p.renderAnswers(r))
		}
	}
	return app.Div().Body(
		app.H2().ID("responses-title").Text("Responses"),
		app.P().ID(statusID).Role("status").TabIndex(-1).Text(p.statusText()),
		app.If(p.loaded && p.meta.Total > 0, p.renderDownloads),
		app.If(len(cards) > 0, func() app.UI { return app.Ul().ID("responses").Class("cards").Body(cards...) }),
		app.If(p.loaded && p.meta.Pages > 1, p.renderPager),
	)
}

// renderPager turns the pages.
func (p *responsesPage) renderPager() app.UI {
	n := p.meta.Page
	return app.Nav().Class("buttons", "pager").Aria("label", "Pages of responses").Body(
		disabledIf(app.Button().ID("responses-newer").Type("button").Class("inline").Text("Newer"), n <= 1 || p.loading).
			OnClick(func(ctx app.Context, e app.Event) { p.turn(ctx, n-1) }, app.EventScope(n)),
		disabledIf(app.Button().ID("responses-older").Type("button").Class("inline").Text("Older"), n >= p.meta.Pages || p.loading).
			OnClick(func(ctx app.Context, e app.Event) { p.turn(ctx, n+1) }, app.EventScope(n)),
	)
}

// renderReview is one response to a review, in full.
func (p *responsesPage) renderReview(r feedback.ReviewResponse) app.UI {
	rows := []app.UI{
		pair("Rating", plural(r.Rating, "star", "stars")+" of 5"),
		pair("Comment", orNone(r.Comment, "No comment")),
	}
	if r.ContactEmail != "" {
		consent := " (may be contacted)"
		if !r.ContactConsent {
			consent = " (no consent to be contacted)"
		}
		rows = append(rows, pair("Email", r.ContactEmail+consent))
	}
	return p.card(r.ID, r.CreatedAt, r.LocationID, r.Language, r.Source, rows)
}

// renderAnswers is one response to a survey: each question in the
// survey's order, with its text and the answer.
func (p *responsesPage) renderAnswers(r feedback.SurveyResponse) app.UI {
	var rows []app.UI
	for _, q := range p.survey.Questions {
		rows = append(rows, pair(q.Labels.Label("en"), answerText(q, r.Answers[q.ID])))
	}
	return p.card(r.ID, r.CreatedAt, r.LocationID, r.Language, r.Source, rows)
}

// card is a response: when, where and how it came, then its answers.
func (p *responsesPage) card(id string, at feedback.Time, loc, lang string, src feedback.Source, rows []app.UI) app.UI {
	how := "from a poster"
	if src == feedback.SourceKiosk {
		how = "from a kiosk"
	}
	return app.Li().ID("response-"+id).Class("card", "response").DataSet("response", id).Body(
		app.H3().Text(dateOf(at.Time)+" · "+p.cat.locationName(loc)),
		app.P().Class("hint").Text("Answered "+how+", in "+languageName(lang)+"."),
		app.Dl().Class("answers").Body(rows...),
	)
}

// pair is a question (or field) and its answer in a description list.
func pair(term, value string) app.UI {
	return app.Div().Body(app.Dt().Text(term), app.Dd().Text(value))
}

func orNone(s, none string) string {
	if strings.TrimSpace(s) == "" {
		return none
	}
	return s
}
