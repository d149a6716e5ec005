package e2e_test

import (
	"context"
	"strconv"
	"testing"
	"time"

	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/chromedp"

	"github.com/feedbackhq/feedback/app/chart"
	"github.com/feedbackhq/feedback/shared/feedback"
)

// The overview's insights (app/dashboard/insights*.go): the elements the
// tests read.
const insightsLoaded = `!!document.getElementById("trend") && !!document.querySelector("#ranking tbody tr")`

// tileValue is the value of the overview's tile id.
func tileValue(b *browser, id string) string {
	b.t.Helper()
	return eval[string](b, `document.querySelector("#`+id+` .tile-value")?.textContent ?? ""`)
}

// tableCell returns the cell col (0 is the row's header) of the row
// headed row in the table of the chart id; "" when there is none.
func tableCell(b *browser, id, row string, col int) string {
	b.t.Helper()
	return eval[string](b, `[...document.querySelectorAll("#`+id+` tbody tr")].find((tr) => tr.children[0].textContent === `+
		jsString(row)+`)?.children[`+strconv.Itoa(col)+`]?.textContent ?? ""`)
}

// statsZone is a zone in which now is at least an hour from midnight,
// so that "today" does not change during the test.
func statsZone(now time.Time) string {
	if h := now.UTC().Hour(); h >= 1 && h <= 22 {
		return "UTC"
	}
	return "Asia/Tokyo"
}

// hygieneFacts is what the test expects of the hygiene ratings: today's
// and the last 7 days' counts, computed from the raw list.
type hygieneFacts struct {
	today, todayLow, todaySum int
	tags                      map[string]int // the last 7 days
	byLoc                     map[string][2]int
}

func factsOf(hs []feedback.HygieneSubmission, loc *time.Location, now time.Time) hygieneFacts {
	f := hygieneFacts{tags: map[string]int{}, byLoc: map[string][2]int{}}
	y, m, d := now.In(loc).Date()
	today := time.Date(y, m, d, 0, 0, 0, 0, loc)
	for _, h := range hs {
		at := h.CapturedAt.Time
		if !at.Before(today) {
			f.today, f.todaySum = f.today+1, f.todaySum+h.Rating
			if h.Rating <= 2 {
				f.todayLow++
			}
		}
		if !at.Before(today.AddDate(0, 0, -6)) {
			for _, t := range h.Tags {
				f.tags[t]++
			}
		}
		if !at.Before(today.AddDate(0, 0, -13)) {
			c := f.byLoc[h.LocationID]
			f.byLoc[h.LocationID] = [2]int{c[0] + 1, c[1] + h.Rating}
		}
	}
	return f
}

// TestDashboardInsights: the overview's tiles, ranking and chart tables
// show the numbers of the hygiene ratings on the server (computed here
// from the raw list, in the workspace's time zone); a rating sent while
// the page is open updates today's tile; the page passes axe-core and
// fits a phone, its controls are reached by keyboard, and printed it
// shows every chart's table. The review and survey results show their
// counts.
func TestDashboardInsights(t *testing.T) {
	s, b, axe := signedInAt(t, "settings", "the workspace settings", `!!document.getElementById("settings-zone")`)
	now := time.Now()
	zone := statsZone(now)
	loc, err := time.LoadLocation(zone)
	if err != nil {
		t.Fatal(err)
	}
	b.do(chromedp.SetValue(chromedp.ID("settings-zone"), zone),
		chromedp.Evaluate[chromedp.Void](`document.getElementById("settings-zone").dispatchEvent(new Event("change"))`),
		chromedp.Click(chromedp.ID("settings-save")))
	b.waitFor("the zone saved", `document.getElementById("settings-notice").textContent.includes(`+jsString(zone)+`)`, 10*time.Second)
	pageShots(t, b, axe, "workspace-settings", "")
	if got, err := s.api.WorkspaceSettings(t.Context()); err != nil || got.TimeZone != zone {
		t.Fatalf("the settings read %+v, %v; want the zone %s", got, err, zone)
	}

	lobby := lobbyPoster(t, s)
	for _, r := range []struct {
		code   string
		rating int
		tags   []string
	}{
		{s.codes[feedback.FormHygiene], 1, []string{feedback.TagNoSoap, feedback.TagBadSmell}},
		{s.codes[feedback.FormHygiene], 2, []string{feedback.TagNoSoap}},
		{lobby, 5, nil}, {lobby, 5, nil},
	} {
		if _, _, err := s.api.Submit(t.Context(), r.code, feedback.Submission{ID: feedback.NewID(), Rating: &r.rating, Tags: r.tags}); err != nil {
			t.Fatalf("submit: %v", err)
		}
	}
	f := factsOf(s.hygiene(), loc, now)

	b.do(chromedp.Navigate(s.base + demoDashboard))
	b.waitFor("the insights", insightsLoaded, 30*time.Second)
	checkInsights(t, b, s, f)

	// A rating sent now counts in today's tile without a reload.
	one := 1
	if _, _, err := s.api.Submit(t.Context(), lobby, feedback.Submission{ID: feedback.NewID(), Rating: &one}); err != nil {
		t.Fatalf("submit: %v", err)
	}
	b.waitFor("today's count to go up live", `document.querySelector("#tile-count .tile-value").textContent === `+
		jsString(strconv.Itoa(f.today+1)), 10*time.Second)

	pageShots(t, b, axe, "insights", "insights")
	pageShots(t, b, axe, "insights-charts", "ranking")
	checkInsightsKeyboard(t, b)
	checkPrint(t, b)
	checkResults(t, s, b, axe)
}

// lobbyPoster makes a hygiene poster at the demo's lobby, so that the
// ranking has two locations, and returns its code.
func lobbyPoster(t *testing.T, s *server) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(t.Context(), 10*time.Second)
	defer cancel()
	p, err := s.api.CreatePoster(ctx, s.locationID("Lobby"), feedback.PosterInput{FormRef: feedback.FormRef{Form: feedback.FormHygiene}})
	if err != nil {
		t.Fatalf("make a poster at the lobby: %v", err)
	}
	return p.Code
}

// checkInsights compares the tiles, the trend's last row, the ranking
// and the tags with f.
func checkInsights(t *testing.T, b *browser, s *server, f hygieneFacts) {
	t.Helper()
	want := map[string]string{
		"tile-count":   strconv.Itoa(f.today),
		"tile-average": chart.Number(float64(f.todaySum)/float64(f.today)) + " of 5",
		"tile-low":     chart.Percent(float64(f.todayLow) / float64(f.today)),
	}
	for id, w := range want {
		if got := tileValue(b, id); got != w {
			t.Errorf("the tile %s reads %q, want %q", id, got, w)
		}
	}
	if got := tileValue(b, "tile-alerts"); got == "" {
		t.Error("the open alerts' tile is empty; want a count or —")
	}
	last := eval[[]string](b, `[...document.querySelector("#trend tbody tr:last-child").children].map((c) => c.textContent)`)
	if len(last) != 4 || last[1] != chart.Number(float64(f.todaySum)/float64(f.today)) || last[2] != want["tile-count"] {
		t.Errorf("the trend's last row (today) reads %q, want the average %s of %s ratings", last, last, want["tile-count"])
	}
	for _, tag := range []string{feedback.TagNoSoap, feedback.TagBadSmell} {
		name := map[string]string{feedback.TagNoSoap: "No soap", feedback.TagBadSmell: "Bad smell"}[tag]
		if got := tableCell(b, "tags", name, 1); got != strconv.Itoa(f.tags[tag]) {
			t.Errorf("the tags' table counts %q for %s, want %d", got, name, f.tags[tag])
		}
	}
	rows := eval[[][]string](b, `[...document.querySelectorAll("#ranking tbody tr")].map((tr) => [tr.dataset.location, tr.querySelector(".rank-average").textContent, tr.querySelector(".rank-count").textContent])`)
	if len(rows) != len(f.byLoc) {
		t.Fatalf("the ranking has %d rows, want %d: %q", len(rows), len(f.byLoc), rows)
	}
	prev := 0.0
	for _, r := range rows {
		c := f.byLoc[r[0]]
		avg := float64(c[1]) / float64(c[0])
		if r[1] != chart.Number(avg) || r[2] != strconv.Itoa(c[0]) {
			t.Errorf("the ranking's row of %s reads %q, want average %s of %d", r[0], r, chart.Number(avg), c[0])
		}
		if avg < prev {
			t.Errorf("the ranking is not lowest average first: %q", rows)
		}
		prev = avg
	}
	if s.locationID("Lobby") != rows[len(rows)-1][0] {
		t.Errorf("the lobby, rated 5 only, is not last in the ranking: %q", rows)
	}
}

// checkInsightsKeyboard tabs from the insights' heading to the location
// and period filters, then opens a chart's table with the keyboard.
func checkInsightsKeyboard(t *testing.T, b *browser) {
	t.Helper()
	b.do(chromedp.Evaluate[chromedp.Void](`document.getElementById("insights-title").tabIndex = -1; document.getElementById("insights-title").focus()`))
	var got []string
	for range 8 {
		if _, err := chromedp.Run(b.ctx, chromedp.KeyEvent("\t")); err != nil {
			t.Fatalf("tab: %v", err)
		}
		got = append(got, eval[string](b, `document.activeElement.id || document.activeElement.tagName + ":" + (document.activeElement.closest("figure")?.id ?? "")`))
		if got[len(got)-1] == "SUMMARY:trend" {
			break
		}
	}
	want := []string{"insights-location", "insights-days", "A:", "SUMMARY:trend"}
	for i, w := range want {
		if i >= len(got) || got[i] != w {
			t.Fatalf("tabbing from the insights reached %q, want %q first", got, want)
		}
	}
	if _, err := chromedp.Run(b.ctx, chromedp.KeyEvent("\r")); err != nil {
		t.Fatalf("enter: %v", err)
	}
	if !eval[bool](b, `document.querySelector("#trend details").open && document.querySelector("#trend table").offsetHeight > 0`) {
		t.Error("Enter on the trend's Show table does not show its table")
	}
}

// checkPrint shows the overview as printed: every chart's table shows,
// the filters do not; a screenshot keeps it.
func checkPrint(t *testing.T, b *browser) {
	t.Helper()
	if _, err := chromedp.Call(b.ctx, emulation.SetEmulatedMedia, emulation.SetEmulatedMediaParams{Media: "print"}); err != nil {
		t.Fatalf("Emulation.setEmulatedMedia: %v", err)
	}
	defer chromedp.Call(b.ctx, emulation.SetEmulatedMedia, emulation.SetEmulatedMediaParams{})
	b.do(chromedp.Evaluate[chromedp.Void](`document.querySelector("#trend details").open = false; window.scrollTo(0, 0); document.getElementById("insights").scrollIntoView()`))
	hidden := eval[[]string](b, `[...document.querySelectorAll("figure.chart table")].filter((t) => t.offsetHeight === 0).map((t) => t.closest("figure").id)`)
	if len(hidden) > 0 {
		t.Errorf("printed, the tables of %q do not show", hidden)
	}
	if eval[bool](b, `!!document.getElementById("insights-location").offsetParent`) {
		t.Error("printed, the filters show")
	}
	shoot(t, b, "insights-print")
}

// checkResults opens the demo review's and survey's responses and
// compares their results' tables with the responses on the server.
func checkResults(t *testing.T, s *server, b *browser, axe string) {
	t.Helper()
	all := feedback.ListParams{Page: 1, PerPage: feedback.MaxPerPage}
	reviews, err := s.api.Reviews(t.Context(), all)
	if err != nil || len(reviews.Data) == 0 {
		t.Fatalf("reviews: %v", err)
	}
	rs, err := s.api.ReviewResponses(t.Context(), reviews.Data[0].ID, all)
	if err != nil {
		t.Fatalf("review responses: %v", err)
	}
	dist := map[int]int{}
	for _, r := range rs.Data {
		dist[r.Rating]++
	}
	b.do(chromedp.Navigate(s.base + demoDashboard + "responses?review=" + reviews.Data[0].ID))
	b.waitFor("the review's results", `!!document.querySelector("#results-ratings tbody tr")`, 30*time.Second)
	for r := 1; r <= 5; r++ {
		if got := tableCell(b, "results-ratings", strconv.Itoa(r)+" of 5", 1); got != strconv.Itoa(dist[r]) {
			t.Errorf("the review's results count %q ratings of %d, want %d", got, r, dist[r])
		}
	}
	pageShots(t, b, axe, "review-results", "results")

	answers := s.surveyResponses()
	var overall [5]int
	yes := 0
	for _, r := range answers {
		if v, ok := r.Answers["overall"].(float64); ok {
			overall[int(v)-1]++
		}
		if r.Answers["return"] == true {
			yes++
		}
	}
	var surveyID string
	for _, r := range answers {
		surveyID = r.SurveyID
	}
	b.do(chromedp.Navigate(s.base + demoDashboard + "responses?survey=" + surveyID))
	b.waitFor("the survey's results", `!!document.querySelector("#question-5 tbody tr")`, 30*time.Second)
	if got := eval[string](b, `document.getElementById("results-summary").textContent`); got != strconv.Itoa(len(answers))+" responses." {
		t.Errorf("the survey's results say %q, want %d responses", got, len(answers))
	}
	for r := 1; r <= 5; r++ {
		if got := tableCell(b, "question-1", strconv.Itoa(r)+" of 5", 1); got != strconv.Itoa(overall[r-1]) {
			t.Errorf("question 1 counts %q ratings of %d, want %d", got, r, overall[r-1])
		}
	}
	if got := tableCell(b, "question-5", "Yes", 1); got != strconv.Itoa(yes) {
		t.Errorf("question 5 counts %q yes, want %d", got, yes)
	}
	pageShots(t, b, axe, "survey-results", "results")
}
