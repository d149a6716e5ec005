package bench_test

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"sync"
	"testing"

	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/feedbackhq/feedback/server"
	feedbackhttp "github.com/feedbackhq/feedback/server/http"
	"github.com/feedbackhq/feedback/server/internal/pgtest"
	"github.com/feedbackhq/feedback/server/postgres"
	"github.com/feedbackhq/feedback/server/secret"
	"github.com/feedbackhq/feedback/server/sqlite"
	"github.com/feedbackhq/feedback/server/workspace"
	"github.com/feedbackhq/feedback/shared/feedback"
)

// env is one store with the service and the bare baseline serving it.
type env struct {
	kind       string
	store      server.Store
	service    *httptest.Server // feedbackd's real router
	bare       *httptest.Server // the bare chi handler on the same database
	ws         *server.Workspace
	token      string
	locationID string
	posterID   string
	code       string
	client     *http.Client
	// exec runs a statement directly on the database, for seeding.
	exec func(ctx context.Context, q string, args ...any) error
}

// newEnv opens a fresh store of kind with one workspace, location and
// hygiene poster, and starts both servers. tracer, if set, traces the
// PostgreSQL pools of both.
func newEnv(tb testing.TB, kind string, tracer *statementLog) *env {
	tb.Helper()
	ctx := context.Background()
	e := &env{kind: kind, client: &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 64}}}
	keys, _ := secret.ParseKeyring(secret.NewKey())
	var bare http.Handler
	switch kind {
	case "postgres":
		url := pgtest.URL(tb)
		var opts []postgres.Option
		if tracer != nil {
			opts = append(opts, postgres.WithTracer(tracer.for_("service")))
		}
		db, err := postgres.Open(ctx, url, opts...)
		if err != nil {
			tb.Fatal(err)
		}
		e.store = db
		pc, _ := pgxpool.ParseConfig(url)
		if tracer != nil {
			pc.ConnConfig.Tracer = tracer.for_("bare")
		}
		pool, err := pgxpool.NewWithConfig(ctx, pc)
		if err != nil {
			tb.Fatal(err)
		}
		tb.Cleanup(pool.Close)
		bare = bareHandler(pgxDB{pool})
		e.exec = func(ctx context.Context, q string, args ...any) error {
			_, err := pool.Exec(ctx, q, args...)
			return err
		}
	case "sqlite":
		path := filepath.Join(tempDir(tb), "bench.db")
		db, err := sqlite.Open(ctx, path)
		if err != nil {
			tb.Fatal(err)
		}
		if err := db.Migrate(ctx); err != nil {
			tb.Fatal(err)
		}
		e.store = db
		raw := openBareSQLite(tb, path)
		bare = bareHandler(raw)
		e.exec = func(ctx context.Context, q string, args ...any) error {
			_, err := raw.writer.ExecContext(ctx, q, args...)
			return err
		}
	}
	tb.Cleanup(func() { e.store.Close() })
	e.provision(tb, keys)
	cfg := feedbackhttp.Config{Store: e.store, Keyring: keys, RateLimit: 1 << 30,
		VisitorLimits: feedbackhttp.VisitorLimits{PerIP: 1 << 30, PerPoster: 1 << 30, PerKiosk: 1 << 30, APIPerIP: 1 << 30},
		Logger:        slog.New(slog.NewTextHandler(io.Discard, nil))}
	e.service = httptest.NewServer(nil)
	cfg.BaseURL = e.service.URL
	e.service.Config.Handler = feedbackhttp.New(cfg).Handler()
	e.bare = httptest.NewServer(bare)
	tb.Cleanup(e.service.Close)
	tb.Cleanup(e.bare.Close)
	return e
}

// provision creates the workspace, token, location and poster.
func (e *env) provision(tb testing.TB, keys *secret.Keyring) {
	tb.Helper()
	ctx := context.Background()
	ws, err := workspace.Create(ctx, e.store, keys, "Bench", "bench")
	if err != nil {
		tb.Fatal(err)
	}
	e.ws = ws
	if e.token, _, err = workspace.CreateToken(ctx, e.store, ws.ID, "bench"); err != nil {
		tb.Fatal(err)
	}
	loc := &feedback.Location{Name: "Restroom"}
	if err := e.store.CreateLocation(ctx, ws.ID, loc); err != nil {
		tb.Fatal(err)
	}
	p := &server.Poster{WorkspaceID: ws.ID}
	p.LocationID, p.Form = loc.ID, feedback.FormHygiene
	if err := e.store.CreatePoster(ctx, p); err != nil {
		tb.Fatal(err)
	}
	e.locationID, e.posterID = loc.ID, p.ID
	if e.code, err = workspace.PosterCode(keys, ws, p.ID); err != nil {
		tb.Fatal(err)
	}
}

// envs caches one environment per store kind and seed size for the
// whole benchmark run: seeding a million rows takes a while.
var envs struct {
	sync.Mutex
	m map[string]*env
}

// sharedEnv returns the cached environment of kind with rows hygiene
// submissions seeded.
func sharedEnv(b *testing.B, kind string, rows int) *env {
	envs.Lock()
	defer envs.Unlock()
	key := fmt.Sprintf("%s/%d", kind, rows)
	if e, ok := envs.m[key]; ok {
		return e
	}
	if envs.m == nil {
		envs.m = map[string]*env{}
	}
	tb := &keepAlive{TB: b}
	e := newEnv(tb, kind, nil)
	if rows > 0 {
		seed(tb, e, rows)
	}
	envs.m[key] = e
	return e
}

// keepAlive lets a cached environment outlive the benchmark that made it:
// its cleanups run when the test binary exits (see TestMain), not when
// the benchmark ends.
type keepAlive struct{ testing.TB }

var exitCleanups struct {
	sync.Mutex
	fns []func()
}

// Cleanup defers f to the end of the test binary.
func (keepAlive) Cleanup(f func()) {
	exitCleanups.Lock()
	defer exitCleanups.Unlock()
	exitCleanups.fns = append(exitCleanups.fns, f)
}

// tempDir returns a directory removed when tb's cleanups run.
func tempDir(tb testing.TB) string {
	dir, err := os.MkdirTemp("", "feedback-bench-")
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { os.RemoveAll(dir) })
	return dir
}

func TestMain(m *testing.M) {
	code := m.Run()
	exitCleanups.Lock()
	for i := len(exitCleanups.fns) - 1; i >= 0; i-- {
		exitCleanups.fns[i]()
	}
	exitCleanups.Unlock()
	pgtest.Release()
	os.Exit(code)
}
