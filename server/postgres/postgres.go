package postgres

import (
	"context"
	"fmt"
	"time"

	"github.com/feedbackhq/feedback/server"
	"github.com/feedbackhq/feedback/server/sqlstore"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
)

// DB is the PostgreSQL store. Its Now field (from [sqlstore.Store]) is
// the clock of both the store and its limiter.
type DB struct {
	*sqlstore.Store
	pool    *pgxpool.Pool
	limiter *Limiter
}

var _ server.Store = (*DB)(nil)

// Option configures [Open].
type Option func(*config)

type config struct {
	now      func() time.Time
	maxConns int32
	tracer   pgx.QueryTracer
}

// WithNow sets the clock of the store and its limiter (time.Now by default).
func WithNow(now func() time.Time) Option {
	return func(c *config) { c.now = now }
}

// WithMaxConns caps the connection pool at n connections (pgxpool's
// default, or the URL's pool_max_conns, otherwise).
func WithMaxConns(n int) Option {
	return func(c *config) { c.maxConns = int32(n) }
}

// WithTracer traces every query of the pool, for benchmarks that check
// what SQL a request runs, or for instrumentation.
func WithTracer(t pgx.QueryTracer) Option {
	return func(c *config) { c.tracer = t }
}

// Open connects to the database at url (a postgres:// URL or a DSN that
// pgxpool understands) and checks that it answers. It does not migrate:
// call [DB.Migrate].
func Open(ctx context.Context, url string, opts ...Option) (*DB, error) {
	cfg := config{now: time.Now}
	for _, o := range opts {
		o(&cfg)
	}
	pc, err := pgxpool.ParseConfig(url)
	if err != nil {
		return nil, fmt.Errorf("postgres: %w", err)
	}
	if cfg.maxConns > 0 {
		pc.MaxConns = cfg.maxConns
	}
	genericPlans(pc.ConnConfig.RuntimeParams)
	if cfg.tracer != nil {
		pc.ConnConfig.Tracer = cfg.tracer
	}
	p, err := pgxpool.NewWithConfig(ctx, pc)
	if err != nil {
		return nil, fmt.Errorf("postgres: %w", err)
	}
	if err := p.Ping(ctx); err != nil {
		p.Close()
		return nil, fmt.Errorf("postgres: %w", err)
	}
	db := &DB{Store: sqlstore.New(pool{conn{p}, p}, dialect), pool: p}
	db.Now = cfg.now
	db.limiter = &Limiter{pool: p, now: func() time.Time { return db.Now() }}
	return db, nil
}

// genericPlans makes each connection plan a prepared statement once,
// unless the URL sets plan_cache_mode. Every statement of the store
// reads through an index that leads with the workspace, so one plan
// suits every argument; left to choose, PostgreSQL planned a list's page
// anew on every call (a custom plan, 0.1 to 0.3 ms, more than running
// it) because its estimate of the generic plan was the higher.
func genericPlans(params map[string]string) {
	if _, set := params["plan_cache_mode"]; !set {
		params["plan_cache_mode"] = "force_generic_plan"
	}
}

// dialect is the SQL that PostgreSQL words its own way. A row id keeps
// the variant and the 62 random bits of a gen_random_uuid() (version 4),
// whose text has them in the same place as a UUIDv7's.
var dialect = sqlstore.Dialect{
	ForUpdate:  " FOR NO KEY UPDATE",
	SkipLocked: " FOR NO KEY UPDATE SKIP LOCKED",
	LockRecord: "SELECT pg_advisory_xact_lock(hashtextextended($1, 0))",
	RowID:      "CAST(%s || substr(CAST(gen_random_uuid() AS text), 20) AS uuid)",
	EventSeq: func(ordinal string) string {
		return fmt.Sprintf("pg_current_xact_id()::text::bigint * %d + CAST(%s AS bigint)", sqlstore.MaxTxEvents, ordinal)
	},
	EventHorizon: fmt.Sprintf(" AND seq < pg_snapshot_xmin(pg_current_snapshot())::text::bigint * %d",
		sqlstore.MaxTxEvents),
	EventSnapshot: "SELECT pg_snapshot_xmin(pg_current_snapshot())::text::bigint, " +
		"pg_snapshot_xmax(pg_current_snapshot())::text::bigint",
	CountShard:  "pg_backend_pid() % 64",
	WritableCTE: true,
	SeekPages:   true,
	JSONHas: func(column, param string) string {
		return column + " @> jsonb_build_array(CAST(" + param + " AS text))"
	},
}

// Limiter returns the rate limiter whose budget every instance shares.
func (db *DB) Limiter() server.Limiter { return db.limiter }

// Pool returns the connection pool, for what the store does not cover
// (LISTEN/NOTIFY, for one).
func (db *DB) Pool() *pgxpool.Pool { return db.pool }
