// Command stats measures the statistics of issue 13 on PostgreSQL: it
// seeds a workspace with -rows hygiene submissions (10,000,000 by
// default) spread over a year across ten locations, in SQL, fills the
// hourly rollups with the migration's own backfill statement, and then
// times, -runs times each, interleaved, "a year of hourly buckets" of
// the whole workspace and of one location: through the store
// (HygieneStats, what GET /stats/hygiene answers) and as the plain GROUP
// BY over the raw rows that the rollups replace. It prints the median,
// fastest and slowest of each as one Markdown table.
//
//	go run ./server/bench/stats -rows 10000000 -runs 7
//
// PostgreSQL is the server on FEEDBACK_BENCH_DATABASE_URL (default
// 127.0.0.1:5432, trust authentication); the program creates a database
// and drops it on exit.
package main

import (
	"context"
	"flag"
	"fmt"
	"log"
	"os"
	"os/signal"
	"slices"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/feedbackhq/feedback/server"
	"github.com/feedbackhq/feedback/server/bench/outside"
	"github.com/feedbackhq/feedback/server/postgres"
	"github.com/feedbackhq/feedback/shared/feedback"
)

func main() {
	rows := flag.Int("rows", 10_000_000, "hygiene submissions to seed")
	runs := flag.Int("runs", 7, "timed runs of each query")
	flag.BoolVar(&keep, "keep", false, "keep the database (its name is logged) instead of dropping it")
	flag.Parse()
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	if err := run(ctx, *rows, *runs); err != nil {
		log.Fatal(err)
	}
}

// keep is the -keep flag.
var keep bool

// stage is the seeded database.
type stage struct {
	store     *postgres.DB
	pool      *pgxpool.Pool
	ws        string
	locations []string
	now       time.Time
}

func run(ctx context.Context, rows, runs int) error {
	db, err := outside.CreateDatabase(ctx, outside.AdminURL(), "feedback_stats")
	if err != nil {
		return err
	}
	if keep {
		log.Printf("keeping the database %s", db.URL)
	} else {
		defer db.Drop()
	}
	st, err := seed(ctx, db.URL, rows)
	if err != nil {
		return err
	}
	defer st.store.Close()
	defer st.pool.Close()
	from, to := st.now.Add(-365*24*time.Hour).Truncate(time.Hour), st.now.Truncate(time.Hour).Add(time.Hour)
	queries := []struct {
		name string
		run  func() (int, error)
	}{
		{"rollup, workspace", func() (int, error) { return st.rollup(ctx, from, to, "") }},
		{"GROUP BY, workspace", func() (int, error) { return st.groupBy(ctx, from, to, "") }},
		{"rollup, one location", func() (int, error) { return st.rollup(ctx, from, to, st.locations[0]) }},
		{"GROUP BY, one location", func() (int, error) { return st.groupBy(ctx, from, to, st.locations[0]) }},
	}
	times := make([][]time.Duration, len(queries))
	counts := make([]int, len(queries))
	for range runs {
		for i, q := range queries {
			start := time.Now()
			n, err := q.run()
			if err != nil {
				return fmt.Errorf("%s: %w", q.name, err)
			}
			times[i] = append(times[i], time.Since(start))
			counts[i] = n
		}
	}
	fmt.Printf("\n%d hygiene submissions over a year, %d locations; a year of hourly buckets, %d runs each:\n\n",
		rows, len(st.locations), runs)
	fmt.Println("| query | ratings counted | median | fastest | slowest |")
	fmt.Println("|---|---:|---:|---:|---:|")
	for i, q := range queries {
		slices.Sort(times[i])
		fmt.Printf("| %s | %d | %s | %s | %s |\n", q.name, counts[i], ms(times[i][len(times[i])/2]), ms(times[i][0]),
			ms(times[i][len(times[i])-1]))
	}
	return nil
}

func ms(d time.Duration) string { return fmt.Sprintf("%.1f ms", float64(d.Microseconds())/1000) }

// seed opens and migrates the store on url, creates a workspace of
// ten locations and fills it with rows submissions and their rollups.
func seed(ctx context.Context, url string, rows int) (*stage, error) {
	store, err := postgres.Open(ctx, url)
	if err != nil {
		return nil, err
	}
	if err := store.Migrate(ctx); err != nil {
		return nil, err
	}
	pool, err := pgxpool.New(ctx, url)
	if err != nil {
		return nil, err
	}
	st := &stage{store: store, pool: pool, now: time.Now().UTC()}
	w := &server.Workspace{Workspace: feedback.Workspace{Name: "Stats", Slug: "stats"}, PosterKey: []byte("stats-bench-key")}
	if err := store.CreateWorkspace(ctx, w); err != nil {
		return nil, err
	}
	st.ws = w.ID
	for i := range 10 {
		l := &feedback.Location{Name: fmt.Sprintf("Restroom %d", i)}
		if err := store.CreateLocation(ctx, st.ws, l); err != nil {
			return nil, err
		}
		st.locations = append(st.locations, l.ID)
	}
	start := time.Now()
	for _, step := range []struct {
		q    string
		args []any
	}{
		{seedSQL, []any{st.ws, st.locations, rows, st.now}},
		{backfillSQL, nil},
		{"VACUUM ANALYZE hygiene_submissions", nil},
		{"VACUUM ANALYZE hygiene_stats", nil},
	} {
		if _, err := pool.Exec(ctx, step.q, step.args...); err != nil {
			return nil, fmt.Errorf("seed: %w", err)
		}
	}
	log.Printf("seeded %d rows and their rollups in %s", rows, time.Since(start).Round(time.Second))
	return st, nil
}

// rollup answers the year through the store, as GET /stats/hygiene does,
// and returns the ratings counted.
func (st *stage) rollup(ctx context.Context, from, to time.Time, location string) (int, error) {
	s, err := st.store.HygieneStats(ctx, st.ws, feedback.StatsQuery{From: feedback.NewTime(from), To: feedback.NewTime(to),
		Bucket: feedback.BucketHour, LocationID: location})
	if err != nil {
		return 0, err
	}
	return s.Total.Count, nil
}

// groupBy counts the same hours from the raw rows and returns the
// ratings counted.
func (st *stage) groupBy(ctx context.Context, from, to time.Time, location string) (int, error) {
	var loc any
	if location != "" {
		loc = location
	}
	rows, err := st.pool.Query(ctx, groupBySQL, st.ws, from, to, loc)
	if err != nil {
		return 0, err
	}
	defer rows.Close()
	total := 0
	for rows.Next() {
		var hour time.Time
		var n [11]int64
		dest := []any{&hour}
		for i := range n {
			dest = append(dest, &n[i])
		}
		if err := rows.Scan(dest...); err != nil {
			return 0, err
		}
		total += int(n[0] + n[1] + n[2] + n[3] + n[4])
	}
	return total, rows.Err()
}
