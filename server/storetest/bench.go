package storetest

import (
	"context"
	"testing"
	"time"

	"github.com/feedbackhq/feedback/server"
	"github.com/feedbackhq/feedback/shared/feedback"
)

// Seeder puts n hygiene submissions straight into a store's database, in
// the workspace ws: the i-th (from 0) at locations[i%len(locations)],
// created at start plus i times [SeedStep]. It brings the counters up to
// date, as the migration's backfill does.
type Seeder func(ctx context.Context, ws string, locations []string, start time.Time, n int) error

// SeedStep is the time between two seeded submissions: a million of them
// span about a year.
const SeedStep = 30 * time.Second

// Counter runs a statement of one row and one integer column.
type Counter func(ctx context.Context, query string, args ...any) (int, error)

// BenchHygieneList1M is the body of the dialects' BenchmarkHygieneList1M:
// it seeds a million hygiene submissions into one workspace of s, at
// three locations, and measures HygieneSubmissions (page 1 of 50) with
// and without a location and a from/to of about a hundred days. For each
// it also measures, with count, the plain COUNT(*) that gave the total
// before the stores kept counters: that statement plus the page was
// the whole cost of a list then.
func BenchHygieneList1M(b *testing.B, s server.Store, seed Seeder, count Counter) {
	ctx := context.Background()
	w := &server.Workspace{Workspace: feedback.Workspace{Name: "Bench", Slug: "bench"}, PosterKey: []byte("k")}
	must(b, s.CreateWorkspace(ctx, w))
	var locations []string
	for range 3 {
		l := &feedback.Location{Name: "Restroom"}
		must(b, s.CreateLocation(ctx, w.ID, l))
		locations = append(locations, l.ID)
	}
	start := time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)
	must(b, seed(ctx, w.ID, locations, start, 1_000_000))
	from := start.Add(100*24*time.Hour + 17*time.Minute + 3500*time.Millisecond)
	to := start.Add(200*24*time.Hour + 42*time.Minute)
	cases := []struct {
		name string
		p    feedback.ListParams
	}{
		{"all", feedback.ListParams{}},
		{"from-to", feedback.ListParams{From: &from, To: &to}},
		{"location", feedback.ListParams{LocationID: locations[0]}},
		{"location+from-to", feedback.ListParams{LocationID: locations[0], From: &from, To: &to}},
	}
	for _, c := range cases {
		c.p.Page, c.p.PerPage = 1, 50
		b.Run(c.name+"/counters", func(b *testing.B) {
			for b.Loop() {
				items, total, err := s.HygieneSubmissions(ctx, w.ID, c.p)
				must(b, err)
				if len(items) != 50 {
					b.Fatalf("%d items of %d, want 50", len(items), total)
				}
				b.ReportMetric(float64(total), "rows")
			}
		})
		b.Run(c.name+"/count(*)", func(b *testing.B) {
			query, args := plainCount(w.ID, c.p)
			for b.Loop() {
				total, err := count(ctx, query, args...)
				must(b, err)
				b.ReportMetric(float64(total), "rows")
			}
		})
	}
}

// plainCount returns the statement that counted a hygiene list before
// the stores kept counters, with its arguments.
func plainCount(ws string, p feedback.ListParams) (string, []any) {
	from, to := time.Date(1, 1, 1, 0, 0, 0, 0, time.UTC), time.Date(9999, 12, 31, 0, 0, 0, 0, time.UTC)
	if p.From != nil {
		from, to = *p.From, *p.To
	}
	query := "SELECT COUNT(*) FROM hygiene_submissions WHERE workspace_id = $1 AND created_at >= $2 AND created_at < $3"
	args := []any{ws, from, to}
	if p.LocationID != "" {
		query += " AND location_id = $4"
		args = append(args, p.LocationID)
	}
	return query, args
}

func must(tb testing.TB, err error) {
	tb.Helper()
	if err != nil {
		tb.Fatal(err)
	}
}
