package sqlite

import (
	"context"
	"database/sql"
	"sync"
)

// maxStmts bounds the statements a [stmts] keeps: the store's are a few
// hundred, its lists' variants included.
const maxStmts = 1024

// stmts keeps the prepared statements of one *sql.DB by their text.
// SQLite compiles a statement on every call otherwise, which costs more
// than running most of the store's (a submission's INSERT, with its
// subquery and constraints, took longer to compile than to run).
// database/sql prepares a kept statement again on each connection that
// runs it, once.
type stmts struct {
	db      *sql.DB
	mu      sync.Mutex
	m       map[string]*sql.Stmt
	pending map[string]bool // met in a transaction, to prepare after it
}

func newStmts(db *sql.DB) *stmts {
	return &stmts{db: db, m: map[string]*sql.Stmt{}, pending: map[string]bool{}}
}

// get returns the prepared statement of query, or nil when it is not
// kept: the cache is full, preparing failed (the caller then runs the
// text, which reports the error), or the caller is in a transaction,
// which holds the DB's only writer connection that preparing would wait
// for (the statement is then prepared by [stmts.preparePending]).
func (s *stmts) get(ctx context.Context, query string, inTx bool) *sql.Stmt {
	s.mu.Lock()
	st, full := s.m[query], len(s.m) >= maxStmts
	if st == nil && !full && inTx {
		s.pending[query] = true
	}
	s.mu.Unlock()
	if st != nil || full || inTx {
		return st
	}
	return s.prepare(ctx, query)
}

// prepare prepares query and keeps it, unless another caller did first.
// It holds no lock while it waits for a connection.
func (s *stmts) prepare(ctx context.Context, query string) *sql.Stmt {
	st, err := s.db.PrepareContext(ctx, query)
	if err != nil {
		return nil
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if kept := s.m[query]; kept != nil || s.m == nil {
		st.Close()
		return kept
	}
	s.m[query] = st
	return st
}

// preparePending prepares the statements that transactions met, once
// the transaction's connection is free.
func (s *stmts) preparePending(ctx context.Context) {
	s.mu.Lock()
	queries := make([]string, 0, len(s.pending))
	for q := range s.pending {
		queries = append(queries, q)
	}
	clear(s.pending)
	s.mu.Unlock()
	for _, q := range queries {
		s.prepare(ctx, q)
	}
}

// close releases every kept statement.
func (s *stmts) close() {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, st := range s.m {
		st.Close()
	}
	s.m = nil
}

// prepared runs statements of a *sql.DB, or of a transaction of it,
// through the DB's kept statements.
type prepared struct {
	stmts *stmts
	tx    *sql.Tx // nil outside a transaction
}

// stmt returns query's statement for this DB or transaction, or nil.
func (p prepared) stmt(ctx context.Context, query string) *sql.Stmt {
	st := p.stmts.get(ctx, query, p.tx != nil)
	if st == nil || p.tx == nil {
		return st
	}
	return p.tx.StmtContext(ctx, st)
}

// querier returns what runs the text when no statement is kept.
func (p prepared) querier() querier {
	if p.tx != nil {
		return p.tx
	}
	return p.stmts.db
}

// ExecContext implements querier.
func (p prepared) ExecContext(ctx context.Context, query string, args ...any) (sql.Result, error) {
	if st := p.stmt(ctx, query); st != nil {
		return st.ExecContext(ctx, args...)
	}
	return p.querier().ExecContext(ctx, query, args...)
}

// QueryContext implements querier.
func (p prepared) QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error) {
	if st := p.stmt(ctx, query); st != nil {
		return st.QueryContext(ctx, args...)
	}
	return p.querier().QueryContext(ctx, query, args...)
}

// QueryRowContext implements querier.
func (p prepared) QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row {
	if st := p.stmt(ctx, query); st != nil {
		return st.QueryRowContext(ctx, args...)
	}
	return p.querier().QueryRowContext(ctx, query, args...)
}
