package dashboard

import (
	"context"
	"fmt"
	"strconv"
	"time"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"github.com/feedbackhq/feedback/shared/feedback"
)

// timesSpan is the period of the alerts page's response times.
const timesSpan = 30 * 24 * time.Hour

// loadTimes reads each location's response times of the alerts
// triggered in the last 30 days (GET /stats/alerts). A failure leaves
// the table out: the alerts themselves matter more.
func (p *alertsPage) loadTimes() {
	p.async(func(c context.Context) func(app.Context) {
		now := time.Now()
		st, err := p.api.AlertStats(c, now.Add(-timesSpan), now)
		return func(ctx app.Context) {
			if err == nil {
				p.times = st.Locations
			}
		}
	})
}

// renderTimes is how fast alerts were acknowledged and resolved, per
// location, over the last 30 days.
func (p *alertsPage) renderTimes() app.UI {
	rows := p.times
	return app.Section().Aria("labelledby", "times-title").Body(
		app.H2().ID("times-title").Text("Response times, last 30 days"),
		app.If(len(rows) == 0, func() app.UI {
			return app.P().ID("times-none").Text("No alert was triggered in the last 30 days.")
		}).Else(func() app.UI {
			return app.Div().Class("table-wrap").Body(app.Table().ID("alert-times").Class("records", "places-table").Body(
				app.Caption().Class("sr-only").Text("Alerts per location over the last 30 days, and the average time to acknowledge and to resolve them"),
				app.THead().Body(app.Tr().Body(
					app.Th().Scope("col").Text("Location"), app.Th().Scope("col").Text("Alerts"),
					app.Th().Scope("col").Text("Still open"), app.Th().Scope("col").Text("Average time to acknowledge"),
					app.Th().Scope("col").Text("Average time to resolve"),
				)),
				app.TBody().Body(app.Range(rows).Slice(func(i int) app.UI {
					r := rows[i]
					loc := alertLocation(p.locs, feedback.Alert{LocationID: &r.LocationID})
					return app.Tr().Body(
						app.Th().Scope("row").DataSet("label", "Location").Text(loc),
						app.Td().DataSet("label", "Alerts").Text(strconv.Itoa(r.Alerts)),
						app.Td().DataSet("label", "Still open").Text(strconv.Itoa(r.Open)),
						app.Td().DataSet("label", "Average time to acknowledge").Text(spanText(r.AvgAcknowledgeSecs)),
						app.Td().DataSet("label", "Average time to resolve").Text(spanText(r.AvgResolveSecs)),
					)
				})),
			))
		}),
	)
}

// spanText says a number of seconds in words ("4 min", "2 h 5 min"),
// and "—" when there is none.
func spanText(secs *float64) string {
	if secs == nil {
		return "—"
	}
	d := time.Duration(*secs * float64(time.Second)).Round(time.Second)
	switch {
	case d < time.Minute:
		return fmt.Sprintf("%d s", int(d.Seconds()))
	case d < time.Hour:
		return fmt.Sprintf("%d min", int(d.Round(time.Minute).Minutes()))
	case d < 48*time.Hour:
		h := int(d.Hours())
		return fmt.Sprintf("%d h %d min", h, int((d - time.Duration(h)*time.Hour).Minutes()))
	}
	return fmt.Sprintf("%.1f days", d.Hours()/24)
}
