package main

import (
	"context"
	"database/sql"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"time"

	_ "github.com/jackc/pgx/v5/stdlib"
	_ "modernc.org/sqlite"

	"github.com/feedbackhq/feedback/server/bench"
	"github.com/feedbackhq/feedback/server/bench/outside"
	"github.com/feedbackhq/feedback/server/secret"
)

// stage is the running set: the database, feedbackd and the bare handler.
type stage struct {
	*outside.Stage
	c        config
	dsn      string // what both servers open
	token    string
	code     string
	feedback target
	bare     target
	idleRSS  string
}

// target is one server under load.
type target struct {
	name string
	base string // http://host:port
	pid  int
}

// targets returns both servers, the one run first alternating by
// repetition so that neither always follows the other.
func (s *stage) targets(rep int) []target {
	if rep%2 == 1 {
		return []target{s.bare, s.feedback}
	}
	return []target{s.feedback, s.bare}
}

// setUp builds both servers, makes the database with feedbackd's demo
// workspace, seeds it and starts both servers pinned.
func setUp(ctx context.Context, c config) (_ *stage, err error) {
	const module = "github.com/feedbackhq/feedback/server/"
	st, err := outside.NewStage("compare", module+"cmd/feedbackd", module+"bench/bare")
	if err != nil {
		return nil, err
	}
	defer st.CloseOnError(&err)
	s := &stage{Stage: st, c: c}
	if err := s.makeDatabase(ctx); err != nil {
		return nil, err
	}
	outside.SetServerEnv(s.dsn)
	if c.hold {
		os.Setenv("FEEDBACK_DEBUG_ADDR", "127.0.0.1:6060")
	}
	if err := s.demo(); err != nil {
		return nil, err
	}
	ids, err := s.seed(ctx)
	if err != nil {
		return nil, err
	}
	if err := s.pinPostgres(ctx); err != nil {
		return nil, err
	}
	if s.feedback, err = s.start("feedbackd", "--addr", "serve", "--log-level", "warn"); err != nil {
		return nil, err
	}
	if s.bare, err = s.start("bare", "-addr", "-workspace", ids[0], "-location", ids[1], "-poster", ids[2]); err != nil {
		return nil, err
	}
	time.Sleep(time.Second)
	s.idleRSS = outside.Status(s.feedback.pid, "VmRSS")
	return s, nil
}

// command runs name from the module's root with output to stderr.
func command(name string, args ...string) *exec.Cmd {
	cmd := exec.Command(name, args...)
	cmd.Stderr = os.Stderr
	return cmd
}

// makeDatabase creates a PostgreSQL database, or names an SQLite file.
func (s *stage) makeDatabase(ctx context.Context) error {
	if s.c.store == "sqlite" {
		s.dsn = filepath.Join(s.Dir, "feedback.db")
		return nil
	}
	db, err := outside.CreateDatabase(ctx, s.c.admin, "feedback_compare")
	if err != nil {
		return err
	}
	s.DB, s.dsn = db, db.URL
	return nil
}

var (
	tokenRE = regexp.MustCompile(`fbk_[0-9A-Za-z]{40}`)
	codeRE  = regexp.MustCompile(`(?m)^\s+hygiene.*/q/([A-Za-z0-9_-]{43})`)
)

// demo makes feedbackd's demo workspace and keeps its token and the code
// of its hygiene poster.
func (s *stage) demo() error {
	out, err := command(filepath.Join(s.Dir, "feedbackd"), "demo", "--base-url", "http://127.0.0.1").Output()
	if err != nil {
		return fmt.Errorf("feedbackd demo: %w", err)
	}
	s.token = tokenRE.FindString(string(out))
	m := codeRE.FindStringSubmatch(string(out))
	if s.token == "" || m == nil {
		return fmt.Errorf("feedbackd demo printed no token or hygiene poster:\n%s", out)
	}
	s.code = m[1]
	return nil
}

// seed fills the poster's workspace with c.rows submissions and returns
// the workspace, location and poster ids.
func (s *stage) seed(ctx context.Context) ([3]string, error) {
	var ids [3]string
	posterID, _, ok := secret.ParsePosterCode(s.code)
	if !ok {
		return ids, fmt.Errorf("bad poster code %q", s.code)
	}
	driver, dsn := "pgx", s.dsn
	if s.c.store == "sqlite" {
		driver = "sqlite"
		dsn += "?_time_integer_format=unix_micro&_busy_timeout=5000"
	}
	db, err := sql.Open(driver, dsn)
	if err != nil {
		return ids, err
	}
	defer db.Close()
	q := `SELECT workspace_id, location_id, id FROM posters WHERE id = $1`
	if err := db.QueryRowContext(ctx, q, posterID).Scan(&ids[0], &ids[1], &ids[2]); err != nil {
		return ids, fmt.Errorf("find the poster: %w", err)
	}
	sd := bench.SeedFor(s.c.store)
	start := time.Now()
	for _, st := range []struct {
		q    string
		args []any
	}{{sd.Insert, []any{ids[0], ids[1], ids[2], s.c.rows}}, {sd.Counters, nil}, {sd.Analyze, nil}} {
		if st.q == "" {
			continue
		}
		if _, err := db.ExecContext(ctx, st.q, st.args...); err != nil {
			return ids, fmt.Errorf("seed: %w", err)
		}
	}
	fmt.Fprintf(os.Stderr, "compare: seeded %d rows in %s\n", s.c.rows, time.Since(start).Round(time.Second))
	return ids, nil
}

// start runs a server pinned to the server CPUs on a free port, given
// with flag, and waits until it accepts connections.
func (s *stage) start(name, flag string, args ...string) (target, error) {
	p, err := s.Start(s.c.cpus[0], name, flag, args...)
	if err != nil {
		return target{}, err
	}
	return target{name: name, base: "http://" + p.Addr, pid: p.PID()}, nil
}

// pinPostgres pins PostgreSQL's processes (and the backends they fork
// later) to the server CPUs.
func (s *stage) pinPostgres(ctx context.Context) (err error) {
	if s.c.store == "postgres" {
		s.Pinned, err = outside.PinPostgres(ctx, s.dsn, s.c.cpus[0])
	}
	return err
}

// peakRSS is feedbackd's peak resident memory so far.
func (s *stage) peakRSS() string { return outside.Status(s.feedback.pid, "VmHWM") }

// quiesce waits until the last run's statements are done on PostgreSQL
// (SQLite's readers stop with their server's requests).
func (s *stage) quiesce(ctx context.Context) error {
	if s.c.store != "postgres" {
		return nil
	}
	return outside.Quiesce(ctx, s.dsn, 10*time.Second)
}
