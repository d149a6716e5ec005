package dashboard

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/feedbackhq/feedback/shared/feedback"
)

const (
	loc1 = "0197a5f0-0000-7000-8000-0000000000a1"
	loc2 = "0197a5f0-0000-7000-8000-0000000000a2"
)

// overview returns an overview of the workspace demo whose view has been
// read: two locations, a review, nothing in the feed yet, and today's
// counts for the day of now.
func overview(now time.Time) *overviewPage {
	shell, _ := New("/w/demo/")
	shell.status, shell.me = ready, me()
	p := &overviewPage{Shell: shell, Workspace: &shell.me.Workspaces[0], loadedOnce: true, wanted: true,
		names: map[string]string{loc1: "Lobby", loc2: "Restroom <1st>"}, forms: map[string]string{"r1": "Our service"},
		locs: []feedback.Location{{ID: loc1, Name: "Lobby"}, {ID: loc2, Name: "Restroom <1st>"}}}
	from, to := localDay(now)
	p.today.startDay(from, to)
	p.today.read()
	p.today.set(&feedback.Summary{From: feedback.NewTime(from), To: feedback.NewTime(to), Locations: []feedback.LocationSummary{
		{LocationID: loc1, Hygiene: feedback.RatingSummary{Count: 2, RatingSum: 9}},
	}}, now.Add(-time.Minute))
	return p
}

// midday returns today's local noon: a "now" for the tests whose items
// lie an hour before it or a minute after it and must stay in its day
// (from time.Now(), TestOverviewLive failed between midnight and one).
func midday() time.Time {
	y, m, d := time.Now().Date()
	return time.Date(y, m, d, 12, 0, 0, 0, time.Local)
}

// event returns a live event of typ carrying v, at seq.
func event(t *testing.T, typ string, seq int64, v any) liveUpdate {
	t.Helper()
	data, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return liveUpdate{state: liveOn, frame: &liveFrame{action: liveEvent, event: feedback.Event{ID: "e", Type: typ, Seq: seq, Data: data}}}
}

// TestOverviewLive: feedback that arrives live goes to the top of the
// feed, stands out, and counts for today at its location; the same
// submission arriving twice (a REST page and an event, or a replay)
// shows once; a filter keeps other feedback out of the list but not out
// of the counts.
func TestOverviewLive(t *testing.T) {
	now := midday()
	p := overview(now)
	p.feed.add(hygieneItem(&feedback.HygieneSubmission{ID: "0197a5f0-0000-7000-8000-000000000001", Rating: 2, LocationID: loc2,
		CreatedAt: feedback.NewTime(now.Add(-time.Hour))}))

	h := feedback.HygieneSubmission{ID: "0197a5f0-0000-7000-8000-000000000002", Rating: 5, LocationID: loc1, Comment: "Spotless",
		CreatedAt: feedback.NewTime(now)}
	r := feedback.ReviewResponse{ID: "0197a5f0-0000-7000-8000-000000000003", ReviewID: "r1", Rating: 3, LocationID: loc2,
		Comment: "Slow <b>service</b>", CreatedAt: feedback.NewTime(now)}
	for _, u := range []liveUpdate{
		event(t, feedback.EventHygieneSubmissionCreated, 5, h),
		event(t, feedback.EventHygieneSubmissionCreated, 5, h),
		event(t, feedback.EventReviewResponseCreated, 6, r),
		event(t, feedback.EventReviewStatusChanged, 7, map[string]any{"review": map[string]any{"id": "r1"}}),
	} {
		p.apply(u, now)
	}
	if got := ids(p.feed.items); got != "3 2 1" {
		t.Errorf("feed %s, want 3 2 1", got)
	}
	html := render(t, p)
	for _, want := range []string{
		`id="item-0197a5f0-0000-7000-8000-000000000003"`, "Review: Our service", "Restroom &lt;1st&gt;", "Rated 3 of 5",
		"Slow &lt;b&gt;service&lt;/b&gt;", "Hygiene report", "Spotless", `class="new-badge"`, "fresh",
		// today: Lobby 2 reports averaging 4.5 and one of 5 live; Restroom a review of 3
		"3 · average 4.7", "1 · average 3.0",
	} {
		if !strings.Contains(html, want) {
			t.Errorf("the overview lacks %q:\n%s", want, html)
		}
	}
	if n := strings.Count(html, `class="new-badge"`); n != 2 {
		t.Errorf("%d items stand out, want the 2 that arrived live", n)
	}

	// Filtered to the lobby, a review at the restroom is counted but not listed.
	p.filter = filter{location: loc1}
	p.apply(event(t, feedback.EventReviewResponseCreated, 8, feedback.ReviewResponse{ID: "0197a5f0-0000-7000-8000-000000000004",
		ReviewID: "r1", Rating: 1, LocationID: loc2, CreatedAt: feedback.NewTime(now)}), now)
	if got := ids(p.feed.items); got != "3 2 1" {
		t.Errorf("feed %s after a filtered-out event, want 3 2 1", got)
	}
	if l := p.today.locs[loc2]; l == nil || l.ReviewResponses.Count != 2 {
		t.Errorf("today at the restroom: %+v, want 2 review responses", l)
	}

	// Yesterday's feedback (a kiosk's late batch) is listed but not counted for today.
	old := feedback.HygieneSubmission{ID: "0197a5f0-0000-7000-8000-000000000005", Rating: 1, LocationID: loc1,
		CreatedAt: feedback.NewTime(p.today.from.Add(-time.Minute))}
	p.apply(event(t, feedback.EventHygieneSubmissionCreated, 9, old), now)
	if l := p.today.locs[loc1]; l.Hygiene.Count != 3 || ids(p.feed.items) != "3 2 1 5" {
		t.Errorf("after yesterday's report: today %+v, feed %s", l.Hygiene, ids(p.feed.items))
	}
}

// TestTodayStale: an item that arrives while the counts are read may be
// in the answer or not, so the answer is read again; an answer for
// another day is not taken.
func TestTodayStale(t *testing.T) {
	now := midday()
	var d today
	from, to := localDay(now)
	if !d.startDay(from, to) || d.startDay(from, to) {
		t.Error("startDay does not report the change of day, and only it")
	}
	answer := &feedback.Summary{From: feedback.NewTime(from), To: feedback.NewTime(to)}
	d.read()
	it := item(kindHygiene, 1, 0)
	it.CreatedAt, it.Rating = now, 4
	d.add(&it, now)
	if !d.set(answer, now) {
		t.Error("an answer read while an item arrived is not read again")
	}
	d.read()
	if d.set(answer, now) || !d.loaded || len(d.locs) != 0 {
		t.Errorf("a quiet read: loaded %v, %v", d.loaded, d.locs)
	}
	if !d.add(&it, now.Add(time.Second)) {
		t.Error("an item right after an answer does not ask for another read")
	}
	if d.add(&it, now.Add(time.Minute)) {
		t.Error("an item counted twice")
	}
	it.ID = "another"
	if d.add(&it, now.Add(time.Minute)) {
		t.Error("an item long after the answer asks for another read")
	}
	if l := d.locs["l1"]; l == nil || l.Hygiene != (feedback.RatingSummary{Count: 2, RatingSum: 8}) {
		t.Errorf("after two live items: %+v", l)
	}
	d.read()
	if !d.set(&feedback.Summary{From: feedback.NewTime(from.AddDate(0, 0, -1)), To: feedback.NewTime(from)}, now) || d.locs["l1"] == nil {
		t.Error("yesterday's answer replaced today's counts, or was not read again")
	}
}

// TestOverviewOlder: the "Show older" button shows while the server has
// older feedback, and the list's bound is said when it is reached.
func TestOverviewOlder(t *testing.T) {
	page := func(older bool, n int) *overviewPage {
		p := overview(time.Now())
		p.feed.limit = maxFeedLimit
		for i := 1; i <= n; i++ {
			p.feed.add(item(kindSurvey, i, float64(i)))
		}
		if older {
			p.feed.older = olderCursor(p.feed.items[n-1].key())
		}
		return p
	}
	if html := render(t, page(false, 3)); strings.Contains(html, "show-older") || !strings.Contains(html, "0 answers") {
		t.Errorf("a complete list offers older feedback, or a survey response lacks its answers:\n%s", html)
	}
	if html := render(t, page(true, 3)); !strings.Contains(html, `id="show-older"`) {
		t.Errorf("no Show older button:\n%s", html)
	}
	if html := render(t, page(true, maxFeedLimit)); strings.Contains(html, `id="show-older"`) || !strings.Contains(html, "newest 1000 pieces") {
		t.Error("a list at its bound still offers older feedback")
	}
}

func TestKioskList(t *testing.T) {
	seen := feedback.NewTime(time.Now().Add(-time.Minute))
	var l kioskList
	l.set([]feedback.Kiosk{
		{ID: "k2", Name: "Lobby tablet", LocationID: loc1, Online: true, QueueDepth: 3, LastSeenAt: &seen},
		{ID: "k1", Name: "Gone", RevokedAt: &seen},
		{ID: "k3", Name: "Café tablet", LocationID: loc2},
	})
	p := overview(time.Now())
	p.kiosks = l
	html := render(t, p)
	for _, want := range []string{`data-kiosk="k2"`, "Online", "Offline", ">3</td>", "Never", "Lobby tablet"} {
		if !strings.Contains(html, want) {
			t.Errorf("the kiosks lack %q:\n%s", want, html)
		}
	}
	if strings.Contains(html, "Gone") || strings.Index(html, "Café tablet") > strings.Index(html, "Lobby tablet") {
		t.Errorf("a revoked kiosk is listed, or the kiosks are not by name:\n%s", html)
	}
}

// TestOverviewReload: a first page read while items arrived live keeps
// those items, and an item both in the page and live shows once.
func TestOverviewReload(t *testing.T) {
	p := overview(time.Now())
	p.readStarted = time.Now()
	x, y, z := item(kindHygiene, 3, 3), item(kindReview, 2, 2), item(kindSurvey, 4, 4)
	x.Arrived, z.Arrived = p.readStarted, p.readStarted.Add(time.Millisecond)
	p.feed.add(x)
	p.feed.add(z) // stored after the read: not in its answer
	p.gotFeed([]sourcePage{{items: []feedItem{item(kindHygiene, 3, 3)}}, {items: []feedItem{y}}}, nil)
	if got := ids(p.feed.items); got != "4 3 2" {
		t.Errorf("feed %s, want 4 3 2", got)
	}
	if !p.loadedOnce || p.feed.older != nil {
		t.Errorf("loaded %v, older %v", p.loadedOnce, p.feed.older)
	}
}
