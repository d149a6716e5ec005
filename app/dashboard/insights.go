package dashboard

import (
	"context"
	"time"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"github.com/feedbackhq/feedback/shared/client"
	"github.com/feedbackhq/feedback/shared/feedback"
)

// insights is the overview's statistics (GET /stats/...): today's tiles
// and the trend of the chosen location (or all), the ranking of the
// locations, the weekday × hour heatmap, the tags, and the number of
// open alerts. They are read when the overview is, and again shortly
// after live feedback or an alert event arrives.
type insights struct {
	location string // the trend's location id, "" for all
	days     int    // the trend's length in days: 7 or 30

	zone    zone
	period  []day                   // the trend's days, oldest first
	trend   *feedback.HygieneStats  // the trend's days, daily
	heat    *feedback.HygieneStats  // the last four weeks
	spark   []day                   // the ranking's days
	ranking *feedback.LocationStats // every location's last 14 days
	alerts  *int                    // the open alerts; nil when unknown
	loaded  bool                    // an answer came
	problem string                  // why the last read failed
	gen     int                     // counts the reads: an older answer is dropped
	soon    bool                    // a read is planned
}

// How much the insights read.
const (
	trendShort   = 7
	trendLong    = 30
	heatDays     = 28
	sparkDays    = 14
	insightsWait = 500 * time.Millisecond // live events within it make one read
)

// insightsRead is the answer of one read.
type insightsRead struct {
	zone    zone
	period  []day
	trend   *feedback.HygieneStats
	heat    *feedback.HygieneStats
	spark   []day
	ranking *feedback.LocationStats
	alerts  *int
}

// loadInsights reads the statistics anew; a read started later wins.
func (p *overviewPage) loadInsights() {
	in := &p.ins
	if p.api == nil {
		return // go-app's test engine: no network
	}
	if in.days == 0 {
		in.days = trendShort
	}
	in.gen++
	gen, loc, days := in.gen, in.location, in.days
	p.async(func(c context.Context) func(app.Context) {
		r, err := readInsights(c, p.api, loc, days, time.Now())
		return func(app.Context) {
			if gen != in.gen {
				return
			}
			if p.Shell.refused(explain(err), "The statistics could not be loaded: ", func(m string) { in.problem = m }) {
				return
			}
			in.problem, in.loaded = "", true
			in.zone, in.period, in.trend, in.heat, in.spark, in.ranking, in.alerts =
				r.zone, r.period, r.trend, r.heat, r.spark, r.ranking, r.alerts
		}
	})
}

// loadInsightsSoon reads the statistics once live events stop coming for
// a moment.
func (p *overviewPage) loadInsightsSoon() {
	if p.ins.soon || !p.wanted || p.api == nil {
		return
	}
	p.ins.soon = true
	p.ui.After(insightsWait, func(app.Context) {
		p.ins.soon = false
		p.loadInsights()
	})
}

// loadAlertCount reads the number of open alerts only.
func (p *overviewPage) loadAlertCount() {
	if p.api == nil {
		return
	}
	p.async(func(c context.Context) func(app.Context) {
		n := openAlerts(c, p.api)
		return func(app.Context) { p.ins.alerts = n }
	})
}

// readInsights reads the settings (for the zone), the statistics and the
// open alerts.
func readInsights(c context.Context, api *client.Client, loc string, n int, now time.Time) (*insightsRead, error) {
	set, err := api.WorkspaceSettings(c)
	if err != nil {
		return nil, err
	}
	r := &insightsRead{zone: zone(set.TimeZone)}
	var from, to time.Time
	r.period, from, to = r.zone.lastDays(n, now)
	q := feedback.StatsQuery{From: feedback.NewTime(from), To: feedback.NewTime(to), Bucket: feedback.BucketDay, LocationID: loc}
	if r.trend, err = api.HygieneStats(c, q); err != nil {
		return nil, err
	}
	_, from, _ = r.zone.lastDays(heatDays, now)
	q.From, q.Bucket = feedback.NewTime(from), feedback.BucketWeek
	if r.heat, err = api.HygieneStats(c, q); err != nil {
		return nil, err
	}
	r.spark, from, _ = r.zone.lastDays(sparkDays, now)
	q.From, q.Bucket, q.LocationID = feedback.NewTime(from), feedback.BucketDay, ""
	if r.ranking, err = api.LocationStats(c, q); err != nil {
		return nil, err
	}
	r.alerts = openAlerts(c, api)
	return r, nil
}

// openAlerts returns the number of open and acknowledged alerts, nil
// when they cannot be read (the tile then shows "—", no error).
func openAlerts(c context.Context, api *client.Client) *int {
	page, err := api.Alerts(c, feedback.ListParams{Page: 1, PerPage: 1}, feedback.AlertFilter{State: "active"})
	if err != nil {
		return nil
	}
	return &page.Meta.Total
}

// isAlertEvent reports whether an event changes the open alerts.
func isAlertEvent(ev *feedback.Event) bool {
	switch ev.Type {
	case feedback.EventAlertTriggered, feedback.EventAlertAcknowledged, feedback.EventAlertResolved:
		return true
	}
	return false
}
