package sqlite

import (
	"context"
	"database/sql"
	"errors"

	"github.com/feedbackhq/feedback/server/sqlstore"
	"modernc.org/sqlite"
	sqlite3 "modernc.org/sqlite/lib"
)

// querier is what a *sql.DB and a *sql.Tx have in common.
type querier interface {
	ExecContext(ctx context.Context, query string, args ...any) (sql.Result, error)
	QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error)
	QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row
}

// conn adapts a *sql.DB or a *sql.Tx to sqlstore.Conn.
type conn struct{ q querier }

func (c conn) Exec(ctx context.Context, query string, args ...any) (int64, error) {
	res, err := c.q.ExecContext(ctx, query, args...)
	if err != nil {
		return 0, classify(err)
	}
	return res.RowsAffected()
}

func (c conn) Query(ctx context.Context, query string, args ...any) (sqlstore.Rows, error) {
	r, err := c.q.QueryContext(ctx, query, args...)
	if err != nil {
		return nil, classify(err)
	}
	return rows{r}, nil
}

func (c conn) QueryRow(ctx context.Context, query string, args ...any) sqlstore.Row {
	return row{c.q.QueryRowContext(ctx, query, args...)}
}

// pool adapts the writer and the readers to sqlstore.DB: statements that
// write go to the single writer, queries to the readers, each through
// its DB's prepared statements; transactions go to the committer.
type pool struct {
	writer, readers *stmts
	commits         *committer
}

func newPool(writer, readers *sql.DB) pool {
	w := newStmts(writer)
	return pool{w, newStmts(readers), newCommitter(w)}
}

func (p pool) Exec(ctx context.Context, query string, args ...any) (int64, error) {
	return conn{prepared{stmts: p.writer}}.Exec(ctx, query, args...)
}

func (p pool) Query(ctx context.Context, query string, args ...any) (sqlstore.Rows, error) {
	return conn{prepared{stmts: p.readers}}.Query(ctx, query, args...)
}

func (p pool) QueryRow(ctx context.Context, query string, args ...any) sqlstore.Row {
	return conn{prepared{stmts: p.readers}}.QueryRow(ctx, query, args...)
}

// InTx runs fn in a transaction on the writer, which BEGIN IMMEDIATE
// (the DSN's _txlock) has already made the only writer of the file,
// together with the transactions that wait for it (see committer).
func (p pool) InTx(ctx context.Context, fn func(tx sqlstore.Conn) error) error {
	return p.commits.inTx(ctx, fn)
}

func (p pool) Ping(ctx context.Context) error {
	return errors.Join(p.writer.db.PingContext(ctx), p.readers.db.PingContext(ctx))
}

func (p pool) Close() error {
	p.commits.close()
	p.readers.close()
	p.writer.close()
	return errors.Join(p.readers.db.Close(), p.writer.db.Close())
}

type row struct{ r *sql.Row }

func (r row) Scan(dest ...any) error { return classify(r.r.Scan(dest...)) }

type rows struct{ *sql.Rows }

func (r rows) Scan(dest ...any) error { return classify(r.Rows.Scan(dest...)) }
func (r rows) Err() error             { return classify(r.Rows.Err()) }
func (r rows) Close()                 { r.Rows.Close() }

// classify marks the errors the store tells apart.
func classify(err error) error {
	var se *sqlite.Error
	switch {
	case err == nil:
		return nil
	case errors.Is(err, sql.ErrNoRows):
		return sqlstore.Mark(sqlstore.ErrNoRows, err)
	case errors.As(err, &se) && (se.Code() == sqlite3.SQLITE_CONSTRAINT_UNIQUE || se.Code() == sqlite3.SQLITE_CONSTRAINT_PRIMARYKEY):
		return sqlstore.Mark(sqlstore.ErrUnique, err)
	case errors.As(err, &se) && se.Code() == sqlite3.SQLITE_CONSTRAINT_FOREIGNKEY:
		return sqlstore.Mark(sqlstore.ErrForeignKey, err)
	}
	return err
}
