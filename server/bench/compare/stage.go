package main

import (
	"context"
	"crypto/rand"
	"database/sql"
	"encoding/base64"
	"fmt"
	"net"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"
	_ "github.com/jackc/pgx/v5/stdlib"
	_ "modernc.org/sqlite"

	"github.com/feedbackhq/feedback/server/bench"
	"github.com/feedbackhq/feedback/server/secret"
)

// stage is the running set: the database, feedbackd and the bare handler.
type stage struct {
	c        config
	dir      string
	dsn      string // what both servers open
	dbName   string // the PostgreSQL database compare created
	token    string
	code     string
	procs    []*exec.Cmd
	feedback target
	bare     target
	idleRSS  string
	pinned   []string // PostgreSQL pids pinned to the server CPU
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
	dir, err := os.MkdirTemp("", "compare")
	if err != nil {
		return nil, err
	}
	s := &stage{c: c, dir: dir}
	defer func() {
		if err != nil {
			s.tearDown()
		}
	}()
	for _, pkg := range []string{"cmd/feedbackd", "bench/bare"} {
		if err := command("go", "build", "-o", dir, "./server/"+pkg).Run(); err != nil {
			return nil, fmt.Errorf("build %s: %w", pkg, err)
		}
	}
	if err := s.makeDatabase(ctx); err != nil {
		return nil, err
	}
	key := make([]byte, 32)
	_, _ = rand.Read(key)
	os.Setenv("FEEDBACK_SECRET_KEY", base64.StdEncoding.EncodeToString(key))
	for _, v := range []string{"FEEDBACK_RATE_LIMIT", "FEEDBACK_VISITOR_LIMIT", "FEEDBACK_POSTER_LIMIT"} {
		os.Setenv(v, "100000000")
	}
	os.Setenv("DATABASE_URL", s.dsn)
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
	s.pinPostgres()
	if s.feedback, err = s.start("feedbackd", "--addr", "serve", "--log-level", "warn"); err != nil {
		return nil, err
	}
	if s.bare, err = s.start("bare", "-addr", "-workspace", ids[0], "-location", ids[1], "-poster", ids[2]); err != nil {
		return nil, err
	}
	time.Sleep(time.Second)
	s.idleRSS = strings.TrimSpace(status(s.feedback.pid, "VmRSS"))
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
		s.dsn = filepath.Join(s.dir, "feedback.db")
		return nil
	}
	s.dbName = fmt.Sprintf("feedback_compare_%d", os.Getpid())
	if err := s.admin(ctx, "CREATE DATABASE "+s.dbName); err != nil {
		return err
	}
	u, err := url.Parse(s.c.admin)
	if err != nil {
		return err
	}
	u.Path = "/" + s.dbName
	s.dsn = u.String()
	return nil
}

// admin runs one statement on the PostgreSQL server's admin database.
func (s *stage) admin(ctx context.Context, q string) error {
	conn, err := pgx.Connect(ctx, s.c.admin)
	if err != nil {
		return err
	}
	defer conn.Close(ctx)
	_, err = conn.Exec(ctx, q)
	return err
}

var (
	tokenRE = regexp.MustCompile(`fbk_[0-9A-Za-z]{40}`)
	codeRE  = regexp.MustCompile(`(?m)^\s+hygiene.*/q/([A-Za-z0-9_-]{43})`)
)

// demo makes feedbackd's demo workspace and keeps its token and the code
// of its hygiene poster.
func (s *stage) demo() error {
	out, err := command(filepath.Join(s.dir, "feedbackd"), "demo", "--base-url", "http://127.0.0.1").Output()
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
	addr, err := freeAddr()
	if err != nil {
		return target{}, err
	}
	args = append([]string{"-c", s.c.cpus[0], filepath.Join(s.dir, name)}, append(args, flag, addr)...)
	cmd := command("taskset", args...)
	if err := cmd.Start(); err != nil {
		return target{}, err
	}
	s.procs = append(s.procs, cmd)
	for range 300 {
		if c, err := net.Dial("tcp", addr); err == nil {
			c.Close()
			return target{name: name, base: "http://" + addr, pid: cmd.Process.Pid}, nil
		}
		time.Sleep(100 * time.Millisecond)
	}
	return target{}, fmt.Errorf("%s does not listen on %s", name, addr)
}

// freeAddr returns a loopback address with a port nobody listens on.
func freeAddr() (string, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return "", err
	}
	defer ln.Close()
	return ln.Addr().String(), nil
}

// pinPostgres pins every PostgreSQL process (and the backends they fork
// later) to the server CPUs.
func (s *stage) pinPostgres() {
	if s.c.store != "postgres" {
		return
	}
	out, _ := exec.Command("pgrep", "-x", "postgres").Output()
	for _, pid := range strings.Fields(string(out)) {
		if exec.Command("taskset", "-a", "-p", "-c", s.c.cpus[0], pid).Run() == nil {
			s.pinned = append(s.pinned, pid)
		}
	}
}

// tearDown stops the servers, unpins PostgreSQL and drops the database.
func (s *stage) tearDown() {
	for _, p := range s.procs {
		_ = p.Process.Kill()
		_ = p.Wait()
	}
	all := fmt.Sprintf("0-%d", numCPU()-1)
	for _, pid := range s.pinned {
		_ = exec.Command("taskset", "-a", "-p", "-c", all, pid).Run()
	}
	if s.dbName != "" {
		_ = s.admin(context.Background(), "DROP DATABASE IF EXISTS "+s.dbName+" WITH (FORCE)")
	}
	os.RemoveAll(s.dir)
}

// status returns a field of /proc/pid/status, such as VmRSS.
func status(pid int, field string) string {
	b, _ := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	for _, l := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(l, field+":"); ok {
			return v
		}
	}
	return "?"
}

// peakRSS is feedbackd's peak resident memory so far.
func (s *stage) peakRSS() string { return status(s.feedback.pid, "VmHWM") }
