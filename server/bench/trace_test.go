package bench_test

import (
	"context"
	"net/http"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/jackc/pgx/v5"

	"github.com/feedbackhq/feedback/shared/feedback"
)

// statementLog records the SQL that pgx pools run, and their round
// trips to the database, per pool.
type statementLog struct {
	mu    sync.Mutex
	on    bool
	seen  map[string][]string
	trips map[string]int
}

// for_ returns a tracer that records under who.
func (l *statementLog) for_(who string) pgx.QueryTracer { return tracer{l, who} }

// record runs fn and returns the statements each pool ran meanwhile.
func (l *statementLog) record(fn func()) map[string][]string {
	l.mu.Lock()
	l.on, l.seen, l.trips = true, map[string][]string{}, map[string]int{}
	l.mu.Unlock()
	fn()
	l.mu.Lock()
	defer l.mu.Unlock()
	l.on = false
	return l.seen
}

type tracer struct {
	log *statementLog
	who string
}

// note records one statement and, when trip, one round trip.
func (t tracer) note(sql string, trip bool) {
	t.log.mu.Lock()
	defer t.log.mu.Unlock()
	if !t.log.on {
		return
	}
	if sql != "" {
		t.log.seen[t.who] = append(t.log.seen[t.who], strings.Join(strings.Fields(sql), " "))
	}
	if trip {
		t.log.trips[t.who]++
	}
}

func (t tracer) TraceQueryStart(ctx context.Context, _ *pgx.Conn, d pgx.TraceQueryStartData) context.Context {
	t.note(d.SQL, true)
	return ctx
}

func (tracer) TraceQueryEnd(context.Context, *pgx.Conn, pgx.TraceQueryEndData) {}

// TraceBatchStart implements pgx.BatchTracer: a pipeline is one round
// trip, whose statements are recorded one by one, in order, by
// TraceBatchQuery.
func (t tracer) TraceBatchStart(ctx context.Context, _ *pgx.Conn, _ pgx.TraceBatchStartData) context.Context {
	t.note("", true)
	return ctx
}

func (t tracer) TraceBatchQuery(_ context.Context, _ *pgx.Conn, d pgx.TraceBatchQueryData) {
	t.note(d.SQL, false)
}

func (tracer) TraceBatchEnd(context.Context, *pgx.Conn, pgx.TraceBatchEndData) {}

// serviceOnly are the statements the service runs that the baseline
// leaves out on purpose: authentication, the shared rate limit and the
// last-used time of the token (the service's own work).
func serviceOnly(stmt string) bool {
	for _, table := range []string{"api_tokens", "rate_limits"} {
		if strings.Contains(stmt, table) {
			return true
		}
	}
	return false
}

// TestBaselineRunsSameSQL traces one ingest and one list request through
// the service and through the bare baseline on PostgreSQL: apart from
// the service's authentication and rate limit, the statements must be
// the same, so the benchmark compares like with like. The service's own
// work on a list is one statement: the token's lookup with its rate limit.
func TestBaselineRunsSameSQL(t *testing.T) {
	log := &statementLog{}
	e := newEnv(t, "postgres", log)
	// Warm up: fill the service's poster-key cache and set the token's
	// last-used time, which is then written at most once a minute.
	warm := func(base, token string) {
		if st := post(t, e, base, feedback.NewID()); st != http.StatusCreated {
			t.Fatalf("warm-up POST to %s: %d", base, st)
		}
		list(t, e, base, token)
	}
	warm(e.service.URL, e.token)
	warm(e.bare.URL, "")
	for _, tc := range []struct {
		name string
		run  func(base, token string)
	}{
		{"ingest", func(base, _ string) { post(t, e, base, feedback.NewID()) }},
		{"list", func(base, token string) { list(t, e, base, token) }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			service := log.record(func() { tc.run(e.service.URL, e.token) })["service"]
			bare := log.record(func() { tc.run(e.bare.URL, "") })["bare"]
			if own := slices.DeleteFunc(slices.Clone(service), func(s string) bool { return !serviceOnly(s) }); tc.name == "list" && len(own) != 1 {
				t.Errorf("authentication and rate limit took %d statements, want 1: %q", len(own), own)
			}
			service = slices.DeleteFunc(service, serviceOnly)
			if len(bare) == 0 {
				t.Fatal("the baseline ran no SQL")
			}
			if diff := cmp.Diff(service, bare); diff != "" {
				t.Errorf("the baseline's SQL differs from the service's (-service +bare):\n%s", diff)
			}
		})
	}
}

// TestListRoundTrips counts the service's round trips to PostgreSQL for
// a page of a list with meta.total: page 1 sends the token's lookup, the
// count and the page in one pipeline; a page further down needs the
// count before its page (the count says where the page starts), and its
// token's lookup rides with the count, so it takes two.
func TestListRoundTrips(t *testing.T) {
	log := &statementLog{}
	e := newEnv(t, "postgres", log)
	for range 3 {
		if st := post(t, e, e.service.URL, feedback.NewID()); st != http.StatusCreated {
			t.Fatalf("POST: %d", st)
		}
	}
	for _, tc := range []struct {
		query string
		trips int
	}{{"per_page=50", 1}, {"page=2&per_page=1", 2}, {"page=3&per_page=1", 2}} {
		get := func() {
			req, _ := http.NewRequest("GET", e.service.URL+"/api/v1/hygiene?"+tc.query, nil)
			req.Header.Set("Authorization", "Bearer "+e.token)
			res, err := e.client.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			res.Body.Close()
			if res.StatusCode != http.StatusOK {
				t.Fatalf("GET ?%s: %d", tc.query, res.StatusCode)
			}
		}
		get() // the token's last-used time is written at most once a minute
		var trips int
		var stmts []string
		log.record(func() { get() })
		log.mu.Lock()
		trips, stmts = log.trips["service"], log.seen["service"]
		log.mu.Unlock()
		if trips != tc.trips {
			t.Errorf("GET ?%s: %d round trips, want %d: %q", tc.query, trips, tc.trips, stmts)
		}
		if n := len(slices.DeleteFunc(slices.Clone(stmts), func(s string) bool { return !serviceOnly(s) })); n != 1 {
			t.Errorf("GET ?%s: %d statements of authentication, want 1: %q", tc.query, n, stmts)
		}
	}
}
