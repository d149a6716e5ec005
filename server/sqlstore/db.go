package sqlstore

import (
	"context"
	"errors"
)

// Conn runs statements: on a connection pool, or inside a transaction.
// Placeholders are $1..$n.
type Conn interface {
	// Exec runs a statement and returns the number of rows it affected.
	Exec(ctx context.Context, query string, args ...any) (int64, error)
	// Query runs a statement that returns rows.
	Query(ctx context.Context, query string, args ...any) (Rows, error)
	// QueryRow runs a statement that returns at most one row. Its Scan
	// returns an error matching [ErrNoRows] when there is none.
	QueryRow(ctx context.Context, query string, args ...any) Row
}

// DB is what a dialect package provides: a pool of connections that also
// runs transactions.
type DB interface {
	Conn
	// InTx runs fn in a transaction that writes: it commits when fn
	// returns nil and rolls back otherwise. fn must run every statement
	// on tx, never on the DB, which may have a single writer.
	InTx(ctx context.Context, fn func(tx Conn) error) error
	// Ping reports whether the database answers.
	Ping(ctx context.Context) error
	// Close releases the connections.
	Close() error
}

// Row is the result of [Conn.QueryRow].
type Row interface {
	Scan(dest ...any) error
}

// Rows is the result of [Conn.Query]. Close may be called more than once.
type Rows interface {
	Next() bool
	Scan(dest ...any) error
	Err() error
	Close()
}

// Errors that adapters mark driver errors with, so that the store can tell
// the cases apart without knowing the driver. Test them with errors.Is.
var (
	ErrNoRows     = errors.New("no rows in result set")
	ErrUnique     = errors.New("unique constraint violated")
	ErrForeignKey = errors.New("foreign key constraint violated")
)

// Mark returns err marked as kind (one of [ErrNoRows], [ErrUnique],
// [ErrForeignKey]): errors.Is matches both kind and err's own chain, and
// the message is err's. Mark(nil, err) returns err.
func Mark(kind, err error) error {
	if kind == nil || err == nil {
		return err
	}
	return &markedError{kind: kind, err: err}
}

type markedError struct {
	kind, err error
}

func (e *markedError) Error() string        { return e.err.Error() }
func (e *markedError) Unwrap() error        { return e.err }
func (e *markedError) Is(target error) bool { return target == e.kind }

// Statement is one statement with its arguments.
type Statement struct {
	Query string
	Args  []any
}

// Pipeliner is what a DB that can send several statements in one round
// trip offers (PostgreSQL's pipeline; SQLite runs in process and needs
// none).
type Pipeliner interface {
	// Pipeline runs stmts in order, outside a transaction, in one round
	// trip, and hands the rows of each to read with its index.
	Pipeline(ctx context.Context, stmts []Statement, read func(i int, rows Rows) error) error
}
