package postgres

import (
	"context"
	"errors"

	"github.com/feedbackhq/feedback/server/sqlstore"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgxpool"
)

// querier is what a pool and a transaction have in common.
type querier interface {
	Exec(ctx context.Context, sql string, args ...any) (pgconn.CommandTag, error)
	Query(ctx context.Context, sql string, args ...any) (pgx.Rows, error)
	QueryRow(ctx context.Context, sql string, args ...any) pgx.Row
}

// conn adapts a pool or a transaction to sqlstore.Conn.
type conn struct{ q querier }

func (c conn) Exec(ctx context.Context, query string, args ...any) (int64, error) {
	tag, err := c.q.Exec(ctx, query, args...)
	return tag.RowsAffected(), classify(err)
}

func (c conn) Query(ctx context.Context, query string, args ...any) (sqlstore.Rows, error) {
	r, err := c.q.Query(ctx, query, args...)
	if err != nil {
		return nil, classify(err)
	}
	return rows{r}, nil
}

func (c conn) QueryRow(ctx context.Context, query string, args ...any) sqlstore.Row {
	return row{c.q.QueryRow(ctx, query, args...)}
}

// pool adapts a pgxpool.Pool to sqlstore.DB.
type pool struct {
	conn
	p *pgxpool.Pool
}

func (p pool) InTx(ctx context.Context, fn func(tx sqlstore.Conn) error) error {
	return classify(pgx.BeginFunc(ctx, p.p, func(tx pgx.Tx) error { return fn(conn{tx}) }))
}

func (p pool) Ping(ctx context.Context) error { return p.p.Ping(ctx) }

func (p pool) Close() error {
	p.p.Close()
	return nil
}

type row struct{ r pgx.Row }

func (r row) Scan(dest ...any) error { return classify(r.r.Scan(dest...)) }

type rows struct{ pgx.Rows }

func (r rows) Scan(dest ...any) error { return classify(r.Rows.Scan(dest...)) }
func (r rows) Err() error             { return classify(r.Rows.Err()) }

// classify marks the errors the store tells apart.
func classify(err error) error {
	var pgErr *pgconn.PgError
	switch {
	case err == nil:
		return nil
	case errors.Is(err, pgx.ErrNoRows):
		return sqlstore.Mark(sqlstore.ErrNoRows, err)
	case errors.As(err, &pgErr) && pgErr.Code == "23505": // unique_violation
		return sqlstore.Mark(sqlstore.ErrUnique, err)
	case errors.As(err, &pgErr) && pgErr.Code == "23503": // foreign_key_violation
		return sqlstore.Mark(sqlstore.ErrForeignKey, err)
	}
	return err
}

// Pipeline implements [sqlstore.Pipeliner] with a pgx batch.
func (p pool) Pipeline(ctx context.Context, stmts []sqlstore.Statement, read func(i int, rows sqlstore.Rows) error) error {
	b := &pgx.Batch{}
	for _, st := range stmts {
		b.Queue(st.Query, st.Args...)
	}
	br := p.p.SendBatch(ctx, b)
	for i := range stmts {
		r, err := br.Query()
		if err != nil {
			br.Close()
			return classify(err)
		}
		err = read(i, rows{r})
		r.Close()
		if err != nil {
			br.Close()
			return err
		}
	}
	return classify(br.Close())
}
