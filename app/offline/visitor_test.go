package offline_test

import (
	"context"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/feedbackhq/feedback/app/offline"
	"github.com/feedbackhq/feedback/shared/feedback"
)

func TestVisitorOutcomes(t *testing.T) {
	invalid := `{"type":"urn:feedback:problem:validation_failed","status":422,"code":"validation_failed",` +
		`"detail":"The submission is invalid.","invalid_params":[{"name":"rating","reason":"is required"},{"name":"id","reason":"must be a UUID"}]}`
	tests := []struct {
		name       string
		status     int
		body       string
		err        error
		wantKept   bool
		wantDead   bool
		wantStatus int
		wantError  string
	}{
		{name: "201 created", status: 201, body: `{"id":"a"}`},
		{name: "200 seen before", status: 200, body: `{"id":"a"}`},
		{name: "204 no content", status: 204},
		{name: "409 idempotency conflict", status: 409, body: problem(409, feedback.EIdempotencyConflict, "Another submission has this id.")},
		{name: "409 without problem", status: 409},
		{name: "409 form not active", status: 409, body: problem(409, feedback.EFormNotActive, "The survey is closed."),
			wantDead: true, wantStatus: 409, wantError: "The survey is closed."},
		{name: "422 invalid", status: 422, body: invalid,
			wantDead: true, wantStatus: 422, wantError: "The submission is invalid. (rating is required; id must be a UUID)"},
		{name: "400 malformed", status: 400, body: problem(400, feedback.EMalformedBody, "The body is not JSON."),
			wantDead: true, wantStatus: 400, wantError: "The body is not JSON."},
		{name: "410 poster revoked", status: 410, body: problem(410, feedback.EPosterRevoked, "This poster was withdrawn."),
			wantDead: true, wantStatus: 410, wantError: "This poster was withdrawn."},
		{name: "404 without problem", status: 404, body: "404 page not found\n",
			wantDead: true, wantStatus: 404, wantError: "HTTP 404: 404 page not found"},
		{name: "500", status: 500, body: problem(500, feedback.EInternal, "An internal error occurred."),
			wantKept: true, wantStatus: 500, wantError: "An internal error occurred."},
		{name: "502 empty", status: 502, wantKept: true, wantStatus: 502, wantError: "HTTP 502"},
		{name: "408 timeout", status: 408, wantKept: true, wantStatus: 408, wantError: "HTTP 408"},
		{name: "network error", err: errNetwork, wantKept: true, wantError: "network error: failed to fetch"},
		{name: "429 without reset", status: 429, wantKept: true, wantStatus: 429, wantError: "HTTP 429"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ctx := context.Background()
			s := &fakeSender{respond: func(request) (offline.Response, error) {
				return offline.Response{Status: tt.status, Body: []byte(tt.body)}, tt.err
			}}
			q, m, _ := newQueue(t, s, []offline.Item{visitor("a", 0)})
			if _, err := q.Flush(ctx); err != nil {
				t.Fatal(err)
			}
			want := visitor("a", 0)
			want.Attempts, want.LastStatus, want.LastError = 1, tt.wantStatus, tt.wantError
			var wantPending, wantDead []offline.Item
			switch {
			case tt.wantKept:
				wantPending = []offline.Item{want}
			case tt.wantDead:
				wantDead = []offline.Item{want}
			}
			pending, _ := m.List(ctx)
			dead, _ := m.ListDead(ctx)
			if diff := cmp.Diff(wantPending, pending, cmp.Comparer(emptyEqual)); diff != "" {
				t.Errorf("pending (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(wantDead, dead, cmp.Comparer(emptyEqual)); diff != "" {
				t.Errorf("dead (-want +got):\n%s", diff)
			}
			st, _ := q.Stats(ctx)
			if tt.wantKept != (st.LastError != "") || tt.wantKept != !st.NextTry.IsZero() {
				t.Errorf("Stats = %+v; want a retry scheduled and an error only when the item is kept", st)
			}
		})
	}
}

// emptyEqual treats nil and empty item slices alike.
func emptyEqual(a, b []offline.Item) bool { return len(a) == 0 && len(b) == 0 || cmp.Equal(a, b) }

func TestVisitorRequest(t *testing.T) {
	s := &fakeSender{respond: answer(201, "{}")}
	q, _, _ := newQueue(t, s, []offline.Item{visitor("a", 0)})
	if _, err := q.Flush(context.Background()); err != nil {
		t.Fatal(err)
	}
	want := []request{{Method: "POST", URL: "/q/abc", Body: []byte(`{"id":"a","rating":4}`),
		Headers: map[string]string{"Content-Type": "application/json", "Accept": "application/json"}}}
	if diff := cmp.Diff(want, s.requests()); diff != "" {
		t.Errorf("requests (-want +got):\n%s", diff)
	}
}

func TestFIFOAndStopAtFailure(t *testing.T) {
	ctx := context.Background()
	var status = map[string]int{"/q/1": 201, "/q/2": 422, "/q/3": 503, "/q/4": 201}
	s := &fakeSender{respond: func(r request) (offline.Response, error) {
		return offline.Response{Status: status[r.URL]}, nil
	}}
	items := []offline.Item{visitor("d", 3), visitor("b", 1), visitor("a", 0), visitor("c", 2)}
	for i, u := range []string{"/q/4", "/q/2", "/q/1", "/q/3"} {
		items[i].URL = u
	}
	q, m, _ := newQueue(t, s, items)
	rep, err := q.Flush(ctx)
	if err != nil {
		t.Fatal(err)
	}
	var urls []string
	for _, r := range s.requests() {
		urls = append(urls, r.URL)
	}
	if diff := cmp.Diff([]string{"/q/1", "/q/2", "/q/3"}, urls); diff != "" {
		t.Errorf("requests: oldest first, stopping at the 503 (-want +got):\n%s", diff)
	}
	wantRep := offline.Report{Requests: 3, Removed: 1, Dead: 1, Kept: 1, NextTry: rep.NextTry}
	if diff := cmp.Diff(wantRep, rep); diff != "" || rep.NextTry.IsZero() {
		t.Errorf("report (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]string{"c", "d"}, idsOf(t)(m.List(ctx))); diff != "" {
		t.Errorf("pending (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]string{"b"}, idsOf(t)(m.ListDead(ctx))); diff != "" {
		t.Errorf("dead (-want +got):\n%s", diff)
	}
}

func TestRateLimit(t *testing.T) {
	ctx := context.Background()
	var reset time.Time
	s := &fakeSender{respond: func(request) (offline.Response, error) {
		return offline.Response{Status: 429, Reset: reset}, nil
	}}
	q, m, c := newQueue(t, s, []offline.Item{visitor("a", 0), visitor("b", 1)})
	tests := []struct {
		name        string
		reset, want time.Duration // after now
	}{
		{"reset in 40 s", 40 * time.Second, 40 * time.Second},
		{"reset past: backoff", -time.Second, time.Second}, // first backoff: 0.5 × 2 s
		{"reset in a day: capped", 24 * time.Hour, offline.MaxRateLimitWait},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			now := c.Now().Add(2 * time.Hour) // past any earlier limit
			c.Set(now)
			reset = now.Add(tt.reset)
			before := len(s.requests())
			if _, err := q.Flush(ctx); err != nil {
				t.Fatal(err)
			}
			st, _ := q.Stats(ctx)
			if want := now.Add(tt.want); !st.NextTry.Equal(want) {
				t.Errorf("NextTry = %v; want %v", st.NextTry, want)
			}
			if n := len(s.requests()) - before; n != 1 {
				t.Errorf("%d requests; want 1: the pass stops at the 429", n)
			}
		})
	}
	t.Run("no pass before the reset", func(t *testing.T) {
		now := c.Now().Add(2 * time.Hour)
		c.Set(now)
		reset = now.Add(40 * time.Second)
		q.Flush(ctx)
		n := len(s.requests())
		c.Set(reset.Add(-time.Second))
		rep, err := q.Flush(ctx)
		if err != nil || rep.Requests != 0 || !rep.NextTry.Equal(reset) || len(s.requests()) != n {
			t.Errorf("Flush before the reset = %+v, %v; want no request and NextTry %v", rep, err, reset)
		}
		c.Set(reset)
		s.respond = answer(201, "")
		if rep, _ := q.Flush(ctx); rep.Removed != 2 {
			t.Errorf("Flush at the reset = %+v; want both items removed", rep)
		}
		if got := idsOf(t)(m.List(ctx)); len(got) != 0 {
			t.Errorf("pending = %v; want none", got)
		}
	})
}

func TestBackoffSchedule(t *testing.T) {
	ctx := context.Background()
	r := 0.999
	s := &fakeSender{respond: answer(503, "")}
	q, m, c := newQueue(t, s, []offline.Item{visitor("a", 0)}, offline.WithRand(func() float64 { return r }))
	var got []time.Duration
	for range 11 {
		if _, err := q.Flush(ctx); err != nil {
			t.Fatal(err)
		}
		st, _ := q.Stats(ctx)
		got = append(got, st.NextTry.Sub(c.Now()).Round(time.Second))
		c.Set(st.NextTry)
	}
	sec := func(s ...int) []time.Duration {
		var d []time.Duration
		for _, n := range s {
			d = append(d, time.Duration(n)*time.Second)
		}
		return d
	}
	if diff := cmp.Diff(sec(2, 4, 8, 16, 32, 64, 128, 256, 300, 300, 300), got); diff != "" {
		t.Errorf("backoff with jitter ≈ 1 doubles up to 5 min (-want +got):\n%s", diff)
	}
	items, _ := m.List(ctx)
	if items[0].Attempts != 11 || items[0].LastStatus != 503 {
		t.Errorf("item = %+v; want 11 attempts and the last status", items[0])
	}
	s.respond = answer(201, "")
	q.Flush(ctx)
	if st, _ := q.Stats(ctx); !st.NextTry.IsZero() || st.LastError != "" || st.Pending != 0 {
		t.Errorf("Stats after success = %+v; want nothing scheduled", st)
	}
}

func TestBackoffBounds(t *testing.T) {
	for n := 1; n <= 30; n++ {
		ceiling := min(offline.BackoffCap, offline.BackoffBase<<min(n-1, 20))
		for _, r := range []float64{0, 0.001, 0.25, 0.5, 0.75, 0.999999} {
			d := offline.Backoff(n, r)
			if d < offline.MinBackoff || d > ceiling || d > offline.BackoffCap {
				t.Errorf("Backoff(%d, %v) = %v; want within [%v, %v]", n, r, d, offline.MinBackoff, ceiling)
			}
			if want := time.Duration(r * float64(ceiling)); want >= offline.MinBackoff && d != want {
				t.Errorf("Backoff(%d, %v) = %v; want full jitter %v", n, r, d, want)
			}
		}
	}
}

func TestResetAt(t *testing.T) {
	now := time.Date(2026, 11, 21, 9, 0, 0, 0, time.UTC)
	tests := []struct {
		name                  string
		retryAfter, rateReset string
		want                  time.Time
	}{
		{"neither", "", "", time.Time{}},
		{"retry-after seconds", "30", "", now.Add(30 * time.Second)},
		{"retry-after wins", " 30 ", "1795000000", now.Add(30 * time.Second)},
		{"retry-after date", "Sat, 21 Nov 2026 09:01:00 GMT", "", now.Add(time.Minute)},
		{"x-ratelimit-reset", "", "1795000000", time.Unix(1795000000, 0)},
		{"garbage", "soon", "later", time.Time{}},
		{"negative", "-5", "", time.Time{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := offline.ResetAt(now, tt.retryAfter, tt.rateReset); !got.Equal(tt.want) {
				t.Errorf("ResetAt(%q, %q) = %v; want %v", tt.retryAfter, tt.rateReset, got, tt.want)
			}
		})
	}
}
