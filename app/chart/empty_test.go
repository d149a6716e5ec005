package chart

import (
	"strings"
	"testing"

	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// TestEmptyData: every chart draws a workspace without data — no
// points, points that are all missing, zero counts — without a panic, and
// a trend without a value says so (a new workspace's first overview).
func TestEmptyData(t *testing.T) {
	missing := []Point{{Label: "Mon", Missing: true}, {Label: "Tue", Missing: true}}
	for name, ui := range map[string]func() app.UI{
		"trend, nothing":            Trend{Caption: "Average"}.Render,
		"trend on 1–5, all missing": Trend{Caption: "Average", Min: 1, Max: 5, Points: missing}.Render,
		"trend, all missing":        Trend{Caption: "Average", Points: missing}.Render,
		"bars, none":                Bars{Caption: "Tags"}.Render,
		"bars, zero counts":         Bars{Caption: "Tags", Bars: []Bar{{Label: "No soap"}}}.Render,
		"heatmap, none":             Heatmap{Caption: "Week"}.Render,
		"gauge, no answer":          Gauge{Caption: "NPS"}.Render,
		"sparkline, nothing":        func() app.UI { return Sparkline("Daily", nil, 1, 5) },
		"sparkline, all missing":    func() app.UI { return Sparkline("Daily", missing, 1, 5) },
	} {
		html := func() (s string) {
			defer func() {
				if v := recover(); v != nil {
					t.Errorf("%s: panic %v", name, v)
				}
			}()
			return app.HTMLString(ui())
		}()
		if strings.HasPrefix(name, "trend") && html != "" && !strings.Contains(html, "no data in this period") {
			t.Errorf("%s: the drawing does not say there is no data:\n%s", name, html)
		}
	}
}
