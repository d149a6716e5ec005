package dashboard

import (
	"strconv"
	"strings"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"github.com/feedbackhq/feedback/shared/feedback"
	"github.com/feedbackhq/feedback/shared/i18n"
)

// Render renders the page: the filters and the downloads, the status,
// the list and its pages.
func (p *hygienePage) Render() app.UI {
	return app.Section().Class("places", "hygiene").Body(
		title("Hygiene reports"),
		app.P().Text("What visitors reported about cleanliness, newest first."),
		p.renderFilters(),
		p.renderDownloads(),
		app.P().ID("hygiene-status").Role("status").TabIndex(-1).Text(p.statusText()),
		problemBox("hygiene-problem", p.problem),
		app.If(p.list != nil && len(p.list.Data) > 0, p.renderTable),
		app.If(p.list != nil && p.list.Meta.Pages > 1, p.renderPages),
	)
}

// statusText says what the list shows.
func (p *hygienePage) statusText() string {
	switch {
	case p.list == nil && p.loading:
		return "Loading the hygiene reports…"
	case p.list == nil:
		return ""
	case p.list.Meta.Total == 0:
		return "No hygiene report matches these filters."
	}
	return pageRange("Reports", p.list.Meta, len(p.list.Data)) + "."
}

// pageRange says which items of a list a page holds: "Reports 51–100
// of 1,234" for noun "Reports" and a page of shown items.
func pageRange(noun string, m feedback.Meta, shown int) string {
	first := (m.Page-1)*m.PerPage + 1
	return noun + " " + thousands(first) + "–" + thousands(first+shown-1) + " of " + thousands(m.Total)
}

// renderFilters are the location, rating, tag and days the list is
// filtered by.
func (p *hygienePage) renderFilters() app.UI {
	opts := []app.UI{option("", "All locations", p.filter.location == "")}
	for _, l := range p.cat.locs {
		opts = append(opts, option(l.ID, l.Name, p.filter.location == l.ID))
	}
	day := func(id, label, value string, set func(f *hygieneFilter, v string)) app.UI {
		return app.Div().Body(
			app.Label().For(id).Text(label),
			app.Input().Type("date").ID(id).Value(value).OnChange(func(ctx app.Context, e app.Event) {
				v := ctx.JSSrc().Get("value").String()
				p.refilter(func(f *hygieneFilter) { set(f, v) })
			}),
		)
	}
	return app.Div().Class("filters").Role("group").Aria("label", "Filters").Body(
		p.choice("hygiene-location", "Location", opts, func(f *hygieneFilter, v string) { f.location = v }),
		p.choice("hygiene-rating", "Rating", p.ratingOptions(), func(f *hygieneFilter, v string) { f.rating = v }),
		p.choice("hygiene-tag", "Problem reported", p.tagOptions(), func(f *hygieneFilter, v string) { f.tag = v }),
		day("hygiene-from", "From (day)", p.filter.from, func(f *hygieneFilter, v string) { f.from = v }),
		day("hygiene-to", "To (day, included)", p.filter.to, func(f *hygieneFilter, v string) { f.to = v }),
	)
}

// choice is a select of the filter that set changes.
func (p *hygienePage) choice(id, label string, opts []app.UI, set func(f *hygieneFilter, v string)) app.UI {
	return app.Div().Body(
		app.Label().For(id).Text(label),
		app.Select().ID(id).OnChange(func(ctx app.Context, e app.Event) {
			v := chosen(ctx)
			p.refilter(func(f *hygieneFilter) { set(f, v) })
		}).Body(opts...),
	)
}

// ratingOptions are the choices of the rating filter.
func (p *hygienePage) ratingOptions() []app.UI {
	opts := []app.UI{option("", "Any rating", p.filter.rating == "")}
	for _, c := range ratingChoices {
		opts = append(opts, option(c.value, c.text, p.filter.rating == c.value))
	}
	return opts
}

// tagOptions are the choices of the tag filter, in the words the
// visitors saw.
func (p *hygienePage) tagOptions() []app.UI {
	opts := []app.UI{option("", "Any or none", p.filter.tag == "")}
	for _, t := range feedback.HygieneTags {
		opts = append(opts, option(t, i18n.T("en", "tag_"+t), p.filter.tag == t))
	}
	return opts
}

// renderDownloads links the export of the filtered list; the browser
// saves it as it streams, whatever its size.
func (p *hygienePage) renderDownloads() app.UI {
	return app.P().Class("buttons", "downloads").Body(
		app.A().ID("export-csv").Class("button", "inline").Href(p.exportHref("csv")).Attr("download", "").
			Text("Download CSV").Aria("label", "Download the filtered reports as CSV (for a spreadsheet)"),
		app.A().ID("export-ndjson").Class("button", "inline").Href(p.exportHref("ndjson")).Attr("download", "").
			Text("Download NDJSON").Aria("label", "Download the filtered reports as NDJSON (one JSON object per line)"),
	)
}

// renderTable is the page of reports.
func (p *hygienePage) renderTable() app.UI {
	return app.Table().ID("hygiene-list").Class("records").Body(
		app.Caption().Class("sr-only").Text("Hygiene reports"),
		app.THead().Body(app.Tr().Body(
			app.Th().Scope("col").Text("When"),
			app.Th().Scope("col").Text("Location"),
			app.Th().Scope("col").Text("Rating"),
			app.Th().Scope("col").Text("Problems"),
			app.Th().Scope("col").Text("Comment"),
			app.Th().Scope("col").Text("From"),
		)),
		app.TBody().Body(app.Range(p.list.Data).Slice(func(i int) app.UI { return p.renderRow(p.list.Data[i]) })),
	)
}

// renderRow is one report.
func (p *hygienePage) renderRow(h feedback.HygieneSubmission) app.UI {
	tags := make([]string, len(h.Tags))
	for i, t := range h.Tags {
		tags[i] = i18n.T("en", "tag_"+t)
	}
	comment := h.Comment
	if comment == "" {
		comment = "—"
	}
	source := "Phone (QR poster)"
	if h.Source == feedback.SourceKiosk {
		source = "Kiosk"
	}
	return app.Tr().Body(
		app.Td().DataSet("label", "When").Text(dateOf(h.CreatedAt.Time)),
		app.Td().DataSet("label", "Location").Text(p.cat.locationName(h.LocationID)),
		app.Td().DataSet("label", "Rating").Text(strconv.Itoa(h.Rating)+" of 5"),
		app.Td().DataSet("label", "Problems").Text(strings.Join(tags, ", ")),
		app.Td().DataSet("label", "Comment").Class("comment").Text(comment),
		app.Td().DataSet("label", "From").Text(source),
	)
}

// renderPages moves between the pages of the list.
func (p *hygienePage) renderPages() app.UI {
	m := p.list.Meta
	prev := disabledIf(app.Button().ID("hygiene-prev").Type("button").Class("inline").Text("Newer"), m.Page <= 1 || p.loading).
		OnClick(func(ctx app.Context, e app.Event) { p.turn(ctx, m.Page-1) })
	next := disabledIf(app.Button().ID("hygiene-next").Type("button").Class("inline").Text("Older"), m.Page >= m.Pages || p.loading).
		OnClick(func(ctx app.Context, e app.Event) { p.turn(ctx, m.Page+1) })
	return app.Nav().Class("pages").Aria("label", "Pages of the reports").Body(
		prev, app.Span().Text("Page "+thousands(m.Page)+" of "+thousands(m.Pages)), next,
	)
}

// thousands writes n with a comma between thousands.
func thousands(n int) string {
	s := strconv.Itoa(n)
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}
