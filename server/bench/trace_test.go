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

// statementLog records the SQL that pgx pools run, per pool.
type statementLog struct {
	mu   sync.Mutex
	on   bool
	seen map[string][]string
}

// for_ returns a tracer that records under who.
func (l *statementLog) for_(who string) pgx.QueryTracer { return tracer{l, who} }

// record runs fn and returns the statements each pool ran meanwhile.
func (l *statementLog) record(fn func()) map[string][]string {
	l.mu.Lock()
	l.on, l.seen = true, map[string][]string{}
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

func (t tracer) TraceQueryStart(ctx context.Context, _ *pgx.Conn, d pgx.TraceQueryStartData) context.Context {
	t.log.mu.Lock()
	defer t.log.mu.Unlock()
	if t.log.on {
		t.log.seen[t.who] = append(t.log.seen[t.who], strings.Join(strings.Fields(d.SQL), " "))
	}
	return ctx
}

func (tracer) TraceQueryEnd(context.Context, *pgx.Conn, pgx.TraceQueryEndData) {}

// TraceBatchStart implements pgx.BatchTracer: a pipeline's statements
// are recorded one by one, in order, by TraceBatchQuery.
func (tracer) TraceBatchStart(ctx context.Context, _ *pgx.Conn, _ pgx.TraceBatchStartData) context.Context {
	return ctx
}

func (t tracer) TraceBatchQuery(ctx context.Context, c *pgx.Conn, d pgx.TraceBatchQueryData) {
	t.TraceQueryStart(ctx, c, pgx.TraceQueryStartData{SQL: d.SQL, Args: d.Args})
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
