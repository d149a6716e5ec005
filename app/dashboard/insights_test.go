package dashboard

import (
	"strings"
	"testing"
	"time"

	"github.com/feedbackhq/feedback/shared/feedback"
)

// TestInsightsRender: the tiles show today's bucket of the workspace's
// zone, the trend's table a row per day ("—" for a day without
// ratings), the ranking the lowest average first, the heatmap and tag
// tables their counts; the alerts tile reads "—" until the alerts can
// be read.
func TestInsightsRender(t *testing.T) {
	now := time.Date(2026, 11, 24, 10, 0, 0, 0, time.UTC)
	html := render(t, insightsPage(now, nil))
	for _, want := range []string{
		`id="tile-count"`, `<span class="tile-value">4</span>`, "2.5 of 5", "50%", `href="/w/demo/alerts"`,
		"Tue 24 Nov", "Wed 18 Nov", "—", "No soap", "4 (avg 2.5)", `role="img"`, "Show table",
	} {
		if !strings.Contains(html, want) {
			t.Errorf("the insights lack %q", want)
		}
	}
	if i, j := strings.Index(html, `data-location="`+loc2), strings.Index(html, `data-location="`+loc1); i < 0 || j < i {
		t.Errorf("the ranking does not put the restroom (2.5) before the lobby (4.5)")
	}
	if got := alertTile(html); got != "—" {
		t.Errorf("the alerts tile reads %q while the alerts are unknown, want —", got)
	}
	n := 3
	if got := alertTile(render(t, insightsPage(now, &n))); got != "3" {
		t.Errorf("the alerts tile reads %q, want 3", got)
	}
}

// alertTile returns the value of the open alerts' tile.
func alertTile(html string) string {
	_, after, _ := strings.Cut(html, `Open alerts</span>`)
	_, after, _ = strings.Cut(after, `>`)
	v, _, _ := strings.Cut(after, "<")
	return v
}

// insightsPage returns an overview whose statistics were read: 4
// ratings today at the restroom, averaging 2.5, and 2 at the lobby.
func insightsPage(now time.Time, alerts *int) *overviewPage {
	p := overview(now)
	in := &p.ins
	in.zone, in.loaded = "Europe/Berlin", true
	in.period, _, _ = in.zone.lastDays(trendShort, now)
	in.spark, _, _ = in.zone.lastDays(sparkDays, now)
	avg, low := 2.5, 0.5
	today := feedback.HygieneBucket{Start: feedback.NewTime(in.zone.dayStart(now)),
		RatingStats: feedback.RatingStats{Count: 4, Average: &avg, Distribution: [5]int{2, 0, 1, 0, 1}}, LowShare: &low,
		Tags: map[string]int{feedback.TagNoSoap: 3}}
	in.trend = &feedback.HygieneStats{Total: today, Buckets: []feedback.HygieneBucket{today}}
	in.heat = &feedback.HygieneStats{Total: today}
	in.heat.Heatmap[1][11] = feedback.HeatCell{Count: 4, RatingSum: 10, Low: 2}
	good := 4.5
	in.ranking = &feedback.LocationStats{Locations: []feedback.LocationTrend{
		{LocationID: loc1, Total: feedback.HygieneBucket{RatingStats: feedback.RatingStats{Count: 2, Average: &good}, LowShare: new(float64)}},
		{LocationID: loc2, Total: today, Buckets: []feedback.HygieneBucket{today}},
	}}

	in.alerts = alerts
	return p
}
