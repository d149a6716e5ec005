package dashboard

import (
	"strconv"
	"strings"
	"time"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"github.com/feedbackhq/feedback/shared/feedback"
)

// Render renders the page: today's counts and the kiosks beside the
// feed on a wide screen, above it on a phone (they are short, and the
// feed is long).
func (p *overviewPage) Render() app.UI {
	return app.Div().Class("overview").Body(
		app.Div().Class("overview-head").Body(
			title("Overview"),
			app.P().Class("hint").Text("Your role in "+p.Workspace.Name+": "+roleName(p.Workspace.Role)+"."),
			app.If(p.problem != "", func() app.UI {
				return app.Div().Class("errors").Role("alert").Body(
					app.P().ID("overview-problem").Text(p.problem),
					app.Button().ID("overview-retry").Type("button").Text("Load the overview again").
						OnClick(func(ctx app.Context, e app.Event) { p.problem = ""; p.reload() }),
				)
			}),
		),
		p.renderInsights(),
		app.Div().Class("overview-side").Body(p.renderToday(), p.renderKiosks()),
		p.renderFeed(),
	)
}

// The kinds of feedback the filter offers, with their names.
var kindNames = []struct{ kind, name string }{
	{"", "All kinds"}, {kindHygiene, "Hygiene reports"}, {kindReview, "Review responses"}, {kindSurvey, "Survey responses"},
}

func (p *overviewPage) renderFeed() app.UI {
	items := p.feed.items
	return app.Section().Class("feed-section").Aria("labelledby", "feed-title").Body(
		app.H2().ID("feed-title").Text("Latest feedback"),
		p.renderFilters(),
		app.P().ID("feed-status").Class("hint").Text(p.feedStatus()),
		app.Ol().ID("feed").Class("feed").Aria("labelledby", "feed-title").Body(
			app.Range(items).Slice(func(i int) app.UI { return p.renderItem(&items[i]) }),
		),
		p.renderOlder(),
	)
}

func (p *overviewPage) feedStatus() string {
	switch {
	case !p.loadedOnce:
		return "Loading the feedback…"
	case p.feed.len() == 0 && p.filter != (filter{}):
		return "No feedback matches the filter."
	case p.feed.len() == 0:
		return "No feedback yet. It appears here as visitors send it."
	}
	return "Newest first. New feedback appears at the top."
}

func (p *overviewPage) renderFilters() app.UI {
	loc := app.Select().ID("filter-location").OnChange(func(ctx app.Context, e app.Event) {
		p.setFilter(filter{location: chosen(ctx), kind: p.filter.kind})
	}).Body(
		option("", "All locations", p.filter.location == ""),
		app.Range(p.locs).Slice(func(i int) app.UI {
			return option(p.locs[i].ID, p.locs[i].Name, p.filter.location == p.locs[i].ID)
		}),
	)
	kind := app.Select().ID("filter-kind").OnChange(func(ctx app.Context, e app.Event) {
		p.setFilter(filter{location: p.filter.location, kind: chosen(ctx)})
	}).Body(
		app.Range(kindNames).Slice(func(i int) app.UI {
			return option(kindNames[i].kind, kindNames[i].name, p.filter.kind == kindNames[i].kind)
		}),
	)
	return app.Div().Class("filters").Body(
		app.Div().Body(app.Label().For("filter-location").Text("Location"), loc),
		app.Div().Body(app.Label().For("filter-kind").Text("Kind"), kind),
	)
}

// anyValue is the value of a filter's "All" choice: go-app leaves out an
// empty value attribute, and the option's text would be its value.
const anyValue = "all"

// chosen returns the value of the select of an event, "" for "All".
func chosen(ctx app.Context) string {
	if v := ctx.JSSrc().Get("value").String(); v != anyValue {
		return v
	}
	return ""
}

// option is a choice of a select; only a chosen one says so (a false
// boolean attribute would read as true, GOAPP.md section 1).
func option(value, text string, chosen bool) app.UI {
	if value == "" {
		value = anyValue
	}
	o := app.Option().Value(value).Text(text)
	if chosen {
		o = o.Selected(true)
	}
	return o
}

// renderItem is one piece of feedback; one that arrived live stands out
// for a moment, with a word for those who do not see the colour.
func (p *overviewPage) renderItem(it *feedItem) app.UI {
	fresh := !it.Arrived.IsZero() && time.Since(it.Arrived) < highlightFor
	li := app.Li().ID(itemID(it.ID)).TabIndex(-1).Class("feed-item", "kind-"+it.Kind)
	if fresh {
		li = li.Class("fresh")
	}
	return li.Body(
		app.P().Class("feed-meta").Body(
			app.If(fresh, func() app.UI { return app.Span().Class("new-badge").Text("New") }),
			app.Strong().Text(p.kindLabel(it)),
			app.Text(" · "+p.locationName(it.LocationID)+" · "),
			app.Span().Class("feed-time").Text(when(it.CreatedAt, time.Now())),
		),
		app.If(it.Rating > 0, func() app.UI {
			return app.P().Class("feed-rating").Body(
				app.Span().Class("stars").Aria("hidden", "true").Text(stars(it.Rating)),
				app.Text(" Rated "+strconv.Itoa(it.Rating)+" of 5"),
			)
		}),
		app.If(it.Kind == kindSurvey, func() app.UI {
			return app.P().Class("feed-rating").Text(answersText(it.Answers))
		}),
		app.If(it.Comment != "", func() app.UI { return app.P().Class("feed-comment").Text(shorten(it.Comment, 280)) }),
	)
}

// itemID is the element id of an item.
func itemID(id string) string { return "item-" + id }

// kindLabel names what an item is: a hygiene report, or a response to
// the named form.
func (p *overviewPage) kindLabel(it *feedItem) string {
	switch it.Kind {
	case kindHygiene:
		return "Hygiene report"
	case kindReview:
		return "Review: " + p.formTitle(it.FormID)
	}
	return "Survey: " + p.formTitle(it.FormID)
}

func (p *overviewPage) formTitle(id string) string {
	if t := p.forms[id]; t != "" {
		return t
	}
	return "a new form"
}

// stars draws a rating of 1 to 5 as five stars, for the eye only.
func stars(rating int) string {
	rating = min(max(rating, 0), 5)
	return strings.Repeat("★", rating) + strings.Repeat("☆", 5-rating)
}

func answersText(n int) string {
	if n == 1 {
		return "1 answer"
	}
	return strconv.Itoa(n) + " answers"
}

// when shows t in the browser's time zone: the time alone today, with
// the date before.
func when(t, now time.Time) string {
	t, now = t.Local(), now.Local()
	if y, m, d := t.Date(); y == now.Year() && m == now.Month() && d == now.Day() {
		return t.Format("15:04:05")
	}
	return t.Format("2 Jan 2006, 15:04")
}

// renderOlder offers the next older page while the server has one.
func (p *overviewPage) renderOlder() app.UI {
	switch {
	case !p.loadedOnce || p.feed.older == nil:
		return app.If(false, nil)
	case p.feed.len() >= maxFeedLimit:
		return app.P().Class("hint").Text("The overview shows the newest " + strconv.Itoa(maxFeedLimit) +
			" pieces of feedback. Choose a location or a kind to see older ones.")
	}
	b := app.Button().ID("show-older").Type("button").Class("show-older").Text("Show older feedback").
		OnClick(func(ctx app.Context, e app.Event) { p.loadOlder() })
	if p.older {
		b = b.Disabled(true).Text("Loading older feedback…")
	}
	return b
}

// renderToday is today's count and average rating per location.
func (p *overviewPage) renderToday() app.UI {
	rows := p.today.rows(p.locationName)
	return recordSection(recordTable{id: "today", title: "Today", caption: "Today's feedback per location",
		loading: !p.today.loaded, waiting: "Loading today's counts…", none: "No feedback today yet.",
		columns: []string{"Location", "Hygiene", "Reviews", "Surveys"}, rows: len(rows),
		row: func(i int) app.UI { return p.renderTodayRow(&rows[i]) }})
}

// recordTable is a section of the overview that is a table of records.
type recordTable struct {
	id, title, caption string
	loading            bool
	waiting, none      string // what the section says while loading, and without records
	columns            []string
	rows               int
	row                func(i int) app.UI
}

// recordSection renders t: its heading, then its table, or a line while
// it loads or when it has no records.
func recordSection(t recordTable) app.UI {
	return app.Section().Aria("labelledby", t.id+"-title").Body(
		app.H2().ID(t.id+"-title").Text(t.title),
		app.If(t.loading, func() app.UI { return app.P().Class("hint").Text(t.waiting) }).
			ElseIf(t.rows == 0, func() app.UI { return app.P().ID(t.id + "-none").Class("hint").Text(t.none) }).
			Else(func() app.UI {
				return app.Table().ID(t.id).Class("records").Body(
					app.Caption().Class("sr-only").Text(t.caption),
					app.THead().Body(app.Tr().Body(app.Range(t.columns).Slice(func(i int) app.UI {
						return app.Th().Scope("col").Text(t.columns[i])
					}))),
					app.TBody().Body(app.Range(make([]struct{}, t.rows)).Slice(t.row)),
				)
			}),
	)
}

func (p *overviewPage) renderTodayRow(l *feedback.LocationSummary) app.UI {
	return app.Tr().DataSet("location", l.LocationID).Body(
		app.Th().Scope("row").Text(p.locationName(l.LocationID)),
		count("Hygiene", l.Hygiene.Count, ratingText(l.Hygiene)),
		count("Reviews", l.ReviewResponses.Count, ratingText(l.ReviewResponses)),
		count("Surveys", l.SurveyResponses, strconv.Itoa(l.SurveyResponses)),
	)
}

// count is a cell of today's counts; a phone leaves out those of zero.
func count(label string, n int, text string) app.UI {
	td := app.Td().DataSet("label", label).Text(text)
	if n == 0 {
		td = td.Class("zero")
	}
	return td
}

// ratingText is a count and its average rating.
func ratingText(r feedback.RatingSummary) string {
	avg, ok := r.Average()
	if !ok {
		return "0"
	}
	return strconv.Itoa(r.Count) + " · average " + strconv.FormatFloat(avg, 'f', 1, 64)
}

// renderKiosks lists the kiosks in service.
func (p *overviewPage) renderKiosks() app.UI {
	ks := p.kiosks.items
	return recordSection(recordTable{id: "kiosks", title: "Kiosks", caption: "Kiosks",
		loading: !p.kiosks.loaded, waiting: "Loading the kiosks…", none: "No kiosk is paired.",
		columns: []string{"Kiosk", "Status", "Queue", "Last seen"}, rows: len(ks),
		row: func(i int) app.UI { return p.renderKiosk(&ks[i]) }})
}

func (p *overviewPage) renderKiosk(k *feedback.Kiosk) app.UI {
	status, class := "Offline", "kiosk-offline"
	if k.Online {
		status, class = "Online", "kiosk-online"
	}
	seen := "Never"
	if k.LastSeenAt != nil {
		seen = when(k.LastSeenAt.Time, time.Now())
	}
	name := k.Name
	if name == "" {
		name = "Kiosk"
	}
	return app.Tr().DataSet("kiosk", k.ID).Body(
		app.Th().Scope("row").Body(app.Text(name), app.Span().Class("hint").Text(" · "+p.locationName(k.LocationID))),
		app.Td().DataSet("label", "Status").Body(app.Span().Class("kiosk-status", class).Text(status)),
		app.Td().DataSet("label", "Queue").Text(strconv.Itoa(k.QueueDepth)),
		app.Td().DataSet("label", "Last seen").Text(seen),
	)
}

// roleName names a role for people.
func roleName(role string) string {
	switch role {
	case feedback.RoleOwner:
		return "platform owner"
	case feedback.RoleAdmin:
		return "admin"
	case feedback.RoleViewer:
		return "viewer"
	}
	return role
}
