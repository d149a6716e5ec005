package dashboard

import (
	"cmp"
	"slices"
	"strconv"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"github.com/feedbackhq/feedback/app/chart"
	"github.com/feedbackhq/feedback/shared/feedback"
	"github.com/feedbackhq/feedback/shared/i18n"
)

// renderInsights is the overview's statistics: the tiles, the trend, the
// ranking, the heatmap and the tags.
func (p *overviewPage) renderInsights() app.UI {
	in := &p.ins
	return app.Section().ID("insights").Class("insights").Aria("labelledby", "insights-title").Body(
		app.H2().ID("insights-title").Text("Insights"),
		p.renderInsightFilters(),
		app.If(in.problem != "", func() app.UI {
			return app.Div().Class("errors").Role("alert").Body(
				app.P().ID("insights-problem").Text(in.problem),
				app.Button().ID("insights-retry").Type("button").Text("Load the statistics again").
					OnClick(func(ctx app.Context, e app.Event) { in.problem = ""; p.loadInsights() }),
			)
		}),
		p.renderTiles(),
		app.If(in.loaded, func() app.UI {
			return app.Div().Class("insight-charts").Body(
				p.renderTrend(),
				p.renderTags(),
				p.renderRanking(),
				p.renderHeatmap(),
			)
		}).Else(func() app.UI {
			return app.P().ID("insights-status").Class("hint").Text("Loading the statistics…")
		}),
	)
}

// renderInsightFilters chooses the location and the length of the trend
// and the tiles.
func (p *overviewPage) renderInsightFilters() app.UI {
	in := &p.ins
	loc := app.Select().ID("insights-location").OnChange(func(ctx app.Context, e app.Event) {
		in.location = chosen(ctx)
		p.loadInsights()
	}).Body(
		option("", "All locations", in.location == ""),
		app.Range(p.locs).Slice(func(i int) app.UI {
			return option(p.locs[i].ID, p.locs[i].Name, in.location == p.locs[i].ID)
		}),
	)
	days := app.Select().ID("insights-days").OnChange(func(ctx app.Context, e app.Event) {
		in.days, _ = strconv.Atoi(ctx.JSSrc().Get("value").String())
		p.loadInsights()
	}).Body(
		option(strconv.Itoa(trendShort), "Last 7 days", in.days != trendLong),
		option(strconv.Itoa(trendLong), "Last 30 days", in.days == trendLong),
	)
	return app.Div().Class("filters").Body(
		app.Div().Body(app.Label().For("insights-location").Text("Location"), loc),
		app.Div().Body(app.Label().For("insights-days").Text("Period"), days),
	)
}

// todayBucket returns the trend's bucket of today, empty when nobody
// rated today.
func (in *insights) todayBucket() feedback.HygieneBucket {
	if in.trend == nil || len(in.period) == 0 {
		return feedback.HygieneBucket{}
	}
	today := in.period[len(in.period)-1].key
	for _, b := range in.trend.Buckets {
		if in.zone.date(b.Start.Time) == today {
			return b
		}
	}
	return feedback.HygieneBucket{}
}

// renderTiles is today's count, average and low share, and the open
// alerts, which link to the alerts page.
func (p *overviewPage) renderTiles() app.UI {
	in := &p.ins
	b, dash := in.todayBucket(), !in.loaded
	count, avg, low, alerts := "—", "—", "—", "—"
	if !dash {
		count = strconv.Itoa(b.Count)
		if b.Average != nil {
			avg = chart.Number(*b.Average) + " of 5"
		}
		if b.LowShare != nil {
			low = chart.Percent(*b.LowShare)
		}
	}
	if in.alerts != nil {
		alerts = strconv.Itoa(*in.alerts)
	}
	return app.Ul().Class("tiles").Aria("label", "Today").Body(
		tile("tile-count", "Ratings today", count),
		tile("tile-average", "Average today", avg),
		tile("tile-low", "Rated 1 or 2 today", low),
		app.Li().ID("tile-alerts").Class("tile").Body(
			app.A().Href("/w/"+p.Workspace.Slug+"/alerts").Body(
				app.Span().Class("tile-label").Text("Open alerts"),
				app.Span().Class("tile-value").Text(alerts),
			),
		),
	)
}

func tile(id, label, value string) app.UI {
	return app.Li().ID(id).Class("tile").Body(
		app.Span().Class("tile-label").Text(label),
		app.Span().Class("tile-value").Text(value),
	)
}

// renderTrend is the average rating per day of the period, with the
// count and low share of each day in its table.
func (p *overviewPage) renderTrend() app.UI {
	in := &p.ins
	byDay := in.bucketsByDay(in.trend.Buckets)
	t := chart.Trend{ID: "trend", Unit: "Average rating", Min: 1, Max: 5, Extra: []string{"Ratings", "Rated 1 or 2"},
		Caption: "Average rating per day, " + p.insightsPlace() + ", last " + strconv.Itoa(len(in.period)) + " days"}
	for _, d := range in.period {
		b, ok := byDay[d.key]
		pt := chart.Point{Label: d.label, Missing: !ok || b.Average == nil}
		cells := []string{"0", "—"}
		if !pt.Missing {
			pt.Value = *b.Average
			cells = []string{strconv.Itoa(b.Count), chart.Percent(*b.LowShare)}
		}
		t.Points, t.ExtraCells = append(t.Points, pt), append(t.ExtraCells, cells)
	}
	return t.Render()
}

// bucketsByDay indexes buckets by their local date.
func (in *insights) bucketsByDay(bs []feedback.HygieneBucket) map[string]feedback.HygieneBucket {
	m := make(map[string]feedback.HygieneBucket, len(bs))
	for _, b := range bs {
		m[in.zone.date(b.Start.Time)] = b
	}
	return m
}

// insightsPlace names the chosen location, or all.
func (p *overviewPage) insightsPlace() string {
	if p.ins.location == "" {
		return "all locations"
	}
	return p.locationName(p.ins.location)
}

// renderRanking compares the locations over the last 14 days, the lowest
// average first: where to clean first.
func (p *overviewPage) renderRanking() app.UI {
	in := &p.ins
	locs := slices.Clone(in.ranking.Locations)
	slices.SortStableFunc(locs, func(a, b feedback.LocationTrend) int {
		return cmp.Compare(avgOf(a.Total.Average), avgOf(b.Total.Average))
	})
	return app.Figure().ID("ranking").Class("chart", "chart-wide").Body(
		app.FigCaption().Class("chart-caption").Text("Locations by average rating, last 14 days, lowest first"),
		app.If(len(locs) == 0, func() app.UI {
			return app.P().Class("hint").Text("No ratings in the last 14 days.")
		}).Else(func() app.UI {
			return app.Div().Class("table-wrap").Body(app.Table().Class("records", "ranking").Body(
				app.THead().Body(app.Tr().Body(
					app.Th().Scope("col").Text("Rank"), app.Th().Scope("col").Text("Location"),
					app.Th().Scope("col").Text("Average"), app.Th().Scope("col").Text("Daily average"),
					app.Th().Scope("col").Text("Rated 1 or 2"), app.Th().Scope("col").Text("Ratings"),
				)),
				app.TBody().Body(app.Range(locs).Slice(func(i int) app.UI { return p.renderRank(i+1, &locs[i]) })),
			))
		}),
	)
}

// avgOf orders a missing average last.
func avgOf(a *float64) float64 {
	if a == nil {
		return 6
	}
	return *a
}

func (p *overviewPage) renderRank(rank int, l *feedback.LocationTrend) app.UI {
	in := &p.ins
	byDay := in.bucketsByDay(l.Buckets)
	pts := make([]chart.Point, 0, len(in.spark))
	for _, d := range in.spark {
		b, ok := byDay[d.key]
		pt := chart.Point{Label: d.label, Missing: !ok || b.Average == nil}
		if !pt.Missing {
			pt.Value = *b.Average
		}
		pts = append(pts, pt)
	}
	name := p.locationName(l.LocationID)
	avg, low := "—", "—"
	if l.Total.Average != nil {
		avg = chart.Number(*l.Total.Average)
		low = chart.Percent(*l.Total.LowShare)
	}
	return app.Tr().DataSet("location", l.LocationID).Body(
		app.Td().DataSet("label", "Rank").Text(strconv.Itoa(rank)),
		app.Th().Scope("row").DataSet("label", "Location").Text(name),
		app.Td().DataSet("label", "Average").Class("rank-average").Text(avg),
		app.Td().DataSet("label", "Daily average").Body(
			chart.Sparkline("Daily average of "+name+" over 14 days, from 1 to 5", pts, 1, 5)),
		app.Td().DataSet("label", "Rated 1 or 2").Class("rank-low").Text(low),
		app.Td().DataSet("label", "Ratings").Class("rank-count").Text(strconv.Itoa(l.Total.Count)),
	)
}

// The heatmap's row and column names.
var (
	weekdays = []string{"Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"}
	hours    = func() []string {
		h := make([]string, 24)
		for i := range h {
			h[i] = strconv.Itoa(i) + ":00"
		}
		return h
	}()
)

// renderHeatmap is when the ratings came over the last four weeks, by
// weekday and hour; its table holds each cell's count and average.
func (p *overviewPage) renderHeatmap() app.UI {
	hm := &p.ins.heat.Heatmap
	counts := make([][]int, 7)
	for d := range counts {
		counts[d] = make([]int, 24)
		for h := range counts[d] {
			counts[d][h] = hm[d][h].Count
		}
	}
	return chart.Heatmap{ID: "heatmap", Wide: true, Rows: weekdays, Cols: hours, Counts: counts,
		Caption: "Ratings by weekday and hour, " + p.insightsPlace() + ", last 4 weeks",
		Detail: func(d, h int) string {
			c := hm[d][h]
			if c.Count == 0 {
				return "0"
			}
			return strconv.Itoa(c.Count) + " (avg " + chart.Number(float64(c.RatingSum)/float64(c.Count)) + ")"
		},
	}.Render()
}

// renderTags is how often each problem was reported, and the ratings'
// distribution, over the trend's period.
func (p *overviewPage) renderTags() app.UI {
	total := &p.ins.trend.Total
	tags := chart.Bars{ID: "tags", Unit: "Reports", Caption: "Problems reported, " + p.insightsPlace() + ", last " + strconv.Itoa(len(p.ins.period)) + " days"}
	for _, t := range feedback.HygieneTags {
		tags.Bars = append(tags.Bars, chart.Bar{Label: i18n.T("en", "tag_"+t), Count: total.Tags[t]})
	}
	return app.Div().Class("chart-pair").Body(tags.Render(), ratingBars("ratings", "Ratings, "+p.insightsPlace()+", last "+
		strconv.Itoa(len(p.ins.period))+" days", total.Distribution))
}

// ratingBars is the distribution of ratings 1 to 5, best first.
func ratingBars(id, caption string, dist [5]int) app.UI {
	b := chart.Bars{ID: id, Unit: "Ratings", Caption: caption}
	for r := 5; r >= 1; r-- {
		b.Bars = append(b.Bars, chart.Bar{Label: strconv.Itoa(r) + " of 5", Count: dist[r-1], Low: r <= 2})
	}
	return b.Render()
}
