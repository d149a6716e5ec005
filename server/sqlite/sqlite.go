package sqlite

import (
	"context"
	"database/sql"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"time"

	"github.com/feedbackhq/feedback/server"
	"github.com/feedbackhq/feedback/server/inmem"
	"github.com/feedbackhq/feedback/server/sqlstore"
	_ "modernc.org/sqlite" // the "sqlite" database/sql driver
)

// Connection settings. Times are INTEGER microseconds, read back as
// time.Time from columns declared TIMESTAMP.
const (
	commonDSN = "_busy_timeout=5000&_foreign_keys=1&_time_integer_format=unix_micro&_inttotime=1"
	writerDSN = commonDSN + "&_journal_mode=WAL&_txlock=immediate"
	readerDSN = commonDSN + "&_query_only=1"
)

// DB is the SQLite store. Its Now field (from [sqlstore.Store]) is the
// clock of both the store and its limiter.
type DB struct {
	*sqlstore.Store
	writer  *sql.DB
	limiter *inmem.Limiter
}

var _ server.Store = (*DB)(nil)

// Option configures [Open].
type Option func(*config)

type config struct {
	now     func() time.Time
	readers int
}

// WithNow sets the clock of the store and its limiter (time.Now by default).
func WithNow(now func() time.Time) Option {
	return func(c *config) { c.now = now }
}

// WithReaders sets the number of reader connections (at least 4, or the
// number of CPUs, by default).
func WithReaders(n int) Option {
	return func(c *config) { c.readers = n }
}

// Open opens the database file at path, creating it and its directory if
// needed, in WAL mode with one writer connection and a pool of readers.
// It does not migrate: call [DB.Migrate].
func Open(ctx context.Context, path string, opts ...Option) (*DB, error) {
	cfg := config{now: time.Now, readers: max(4, runtime.NumCPU())}
	for _, o := range opts {
		o(&cfg)
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o750); err != nil {
		return nil, fmt.Errorf("sqlite: %w", err)
	}
	writer, err := open(ctx, path, writerDSN, 1) // first: it turns WAL on
	if err != nil {
		return nil, err
	}
	readers, err := open(ctx, path, readerDSN, cfg.readers)
	if err != nil {
		writer.Close()
		return nil, err
	}
	db := &DB{Store: sqlstore.New(newPool(writer, readers), dialect), writer: writer}
	db.Now = cfg.now
	db.limiter = inmem.NewLimiter(func() time.Time { return db.Now() })
	return db, nil
}

// dialect is the SQL that SQLite words its own way. A row id draws the
// two random bits of the variant's digit from random() and the other 60
// from randomblob().
var dialect = sqlstore.Dialect{
	RowID: "%s || substr('89ab', 1 + (random() & 3), 1) || substr(lower(hex(randomblob(2))), 2) || '-' || " +
		"lower(hex(randomblob(6)))",
	EventSeq: func(string) string {
		return "(SELECT COALESCE(MAX(seq), 0) + 1 FROM events WHERE workspace_id = $1)"
	},
	CountShard: "0",
	LimitParam: "(%s + 0)",
	JSONHas: func(column, param string) string {
		return "EXISTS (SELECT 1 FROM json_each(" + column + ") WHERE value = " + param + ")"
	},
}

// open opens a pool of at most n connections to path and checks it.
func open(ctx context.Context, path, params string, n int) (*sql.DB, error) {
	sep := "?"
	if strings.Contains(path, "?") {
		sep = "&"
	}
	db, err := sql.Open("sqlite", path+sep+params)
	if err != nil {
		return nil, fmt.Errorf("sqlite: %w", err)
	}
	db.SetMaxOpenConns(n)
	db.SetMaxIdleConns(n)
	db.SetConnMaxIdleTime(0)
	if err := db.PingContext(ctx); err != nil {
		db.Close()
		return nil, fmt.Errorf("sqlite: open %s: %w", path, err)
	}
	return db, nil
}

// Limiter returns the in-process rate limiter: a SQLite store serves one
// process.
func (db *DB) Limiter() server.Limiter { return db.limiter }
