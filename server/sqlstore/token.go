package sqlstore

import (
	"context"
	"errors"
	"time"

	"github.com/feedbackhq/feedback/server"
	"github.com/feedbackhq/feedback/shared/feedback"
)

const tokenColumns = "workspace_id, id, name, prefix, hash, created_at, last_used_at, revoked_at"

// touchInterval is how stale last_used_at must be before TouchToken
// writes it again, so that a busy token does not write on every request.
const touchInterval = time.Minute

// CreateToken stores t with a new id (unless set) and created_at.
// Returns feedback.ENotFound if the workspace does not exist and
// feedback.EConflict if the id or the hash is taken.
func (s *Store) CreateToken(ctx context.Context, t *server.Token) (err error) {
	defer wrap(&err, "CreateToken(%s)", t.WorkspaceID)
	if !canonical(&t.WorkspaceID) {
		return notFound("workspace", t.WorkspaceID)
	}
	if err := canonicalNew(&t.ID); err != nil {
		return err
	}
	t.ID = s.newID(t.ID)
	t.CreatedAt = s.now()
	t.LastUsedAt, t.RevokedAt = truncate(t.LastUsedAt), truncate(t.RevokedAt)
	return s.db.InTx(ctx, func(tx Conn) error {
		_, err := tx.Exec(ctx, `INSERT INTO api_tokens (`+tokenColumns+`) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
			t.WorkspaceID, t.ID, t.Name, t.Prefix, t.Hash, t.CreatedAt, t.LastUsedAt, t.RevokedAt)
		return createError(err, "workspace", t.WorkspaceID)
	})
}

// TokenByHash returns the token, revoked or not, whose hash is hash.
// Returns feedback.ENotFound.
func (s *Store) TokenByHash(ctx context.Context, hash []byte) (_ *server.Token, err error) {
	defer wrap(&err, "TokenByHash")
	t, err := one(scanToken(s.db.QueryRow(ctx, `SELECT `+tokenColumns+` FROM api_tokens WHERE hash = $1`, hash)))
	if errors.Is(err, ErrNoRows) {
		return nil, feedback.Errorf(feedback.ENotFound, "No such token exists.")
	}
	return t, err
}

// tokenStatement is TokenByHash's query, for a pipeline.
func tokenStatement(hash []byte) Statement {
	return Statement{`SELECT ` + tokenColumns + ` FROM api_tokens WHERE hash = $1`, []any{hash}}
}

// scanTokenRows reads the answer of tokenStatement as TokenByHash
// returns it.
func scanTokenRows(rows Rows) (*server.Token, error) {
	defer rows.Close()
	if !rows.Next() {
		if err := rows.Err(); err != nil {
			return nil, err
		}
		return nil, feedback.Errorf(feedback.ENotFound, "No such token exists.")
	}
	t, err := scanToken(rows)
	if err != nil {
		return nil, err
	}
	return &t, rows.Err()
}

// TokenByHashCounting is [Store.TokenByHash] that, in the same statement,
// counts n requests (a lease) of a token that is not revoked in the
// rate_limits window of key prefix plus the token's workspace id that
// starts at start, and returns the window's count (0 for a revoked
// token). Only for
// a database that keeps rate_limits (PostgreSQL): an API request's
// authentication and rate limit are then one round trip, and a revoked
// token is still refused on its next request, since the row is read
// every time. Returns feedback.ENotFound.
func (s *Store) TokenByHashCounting(ctx context.Context, hash []byte, prefix string, start, end time.Time, n int) (_ *server.Token, count int, err error) {
	defer wrap(&err, "TokenByHashCounting")
	t, err := one(scanTokenAnd(s.db.QueryRow(ctx, `WITH t AS (SELECT `+tokenColumns+` FROM api_tokens WHERE hash = $1),
		c AS (INSERT INTO rate_limits (key, window_start, window_end, count)
			SELECT $2 || CAST(workspace_id AS text), $3, $4, $5 FROM t WHERE revoked_at IS NULL
			ON CONFLICT (key, window_start) DO UPDATE SET count = rate_limits.count + $5
			RETURNING count)
		SELECT `+tokenColumns+`, COALESCE((SELECT count FROM c), 0) FROM t`, hash, prefix, start, end, n), &count))
	if errors.Is(err, ErrNoRows) {
		return nil, 0, feedback.Errorf(feedback.ENotFound, "No such token exists.")
	}
	return t, count, err
}

// Tokens returns the workspace's tokens, newest first, revoked ones included.
func (s *Store) Tokens(ctx context.Context, workspaceID string) (_ []server.Token, err error) {
	defer wrap(&err, "Tokens(%s)", workspaceID)
	if !canonical(&workspaceID) {
		return []server.Token{}, nil
	}
	rows, err := s.db.Query(ctx, `SELECT `+tokenColumns+` FROM api_tokens WHERE workspace_id = $1
		ORDER BY created_at DESC, id DESC`, workspaceID)
	if err != nil {
		return nil, err
	}
	return collect(rows, scanToken)
}

// RevokeToken marks a token revoked at the store's now; revoking a
// revoked token keeps the first time. Returns feedback.ENotFound.
func (s *Store) RevokeToken(ctx context.Context, workspaceID, id string) (t *server.Token, err error) {
	defer wrap(&err, "RevokeToken(%s, %s)", workspaceID, id)
	if !canonical(&workspaceID, &id) {
		return nil, notFound("token", id)
	}
	err = s.db.InTx(ctx, func(tx Conn) error {
		t, err = one(scanToken(tx.QueryRow(ctx, `UPDATE api_tokens SET revoked_at = COALESCE(revoked_at, $3)
			WHERE workspace_id = $1 AND id = $2 RETURNING `+tokenColumns, workspaceID, id, s.now())))
		return orNotFound(err, "token", id)
	})
	return nilOnError(t, err)
}

// TouchToken sets last_used_at to at if it is older than a minute. A token
// that does not exist is not an error: there is nothing to record.
func (s *Store) TouchToken(ctx context.Context, workspaceID, id string, at time.Time) (err error) {
	defer wrap(&err, "TouchToken(%s, %s)", workspaceID, id)
	if !canonical(&workspaceID, &id) {
		return nil
	}
	at = at.UTC().Truncate(time.Microsecond)
	return s.db.InTx(ctx, func(tx Conn) error {
		_, err := tx.Exec(ctx, `UPDATE api_tokens SET last_used_at = $3
			WHERE workspace_id = $1 AND id = $2 AND (last_used_at IS NULL OR last_used_at < $4)`,
			workspaceID, id, at, at.Add(-touchInterval))
		return err
	})
}

func scanToken(r Row) (server.Token, error) { return scanTokenAnd(r) }

// scanTokenAnd scans the columns tokenColumns names and then into more.
func scanTokenAnd(r Row, more ...any) (server.Token, error) {
	var t server.Token
	err := r.Scan(append([]any{&t.WorkspaceID, &t.ID, &t.Name, &t.Prefix, &t.Hash, atTime(&t.CreatedAt),
		atOptTime(&t.LastUsedAt), atOptTime(&t.RevokedAt)}, more...)...)
	return t, err
}

// queryChecked runs st and hands its rows to read, with the pending
// token check's statement in the same round trip (see pipeChecked).
func (s *Store) queryChecked(ctx context.Context, st Statement, read func(Rows) error) error {
	return s.pipeChecked(ctx, []Statement{st}, []func(Rows) error{read})
}

// pipeChecked runs stmts in order and hands the rows of each to the read
// of the same index. When ctx carries an unsettled token check (see
// [server.WithTokenCheck]) and the database pipelines, the token's
// statement goes first in the same round trip and settles the check, so
// that a request reads its token without a round trip of its own. On a
// database without a pipeline, the statements run one by one.
func (s *Store) pipeChecked(ctx context.Context, stmts []Statement, reads []func(Rows) error) error {
	if s.pipe == nil {
		for i, st := range stmts {
			if err := reads[i](mustRows(s.db.Query(ctx, st.Query, st.Args...))); err != nil {
				return err
			}
		}
		return nil
	}
	if tc := server.PendingTokenCheck(ctx); tc != nil {
		stmts = append([]Statement{tokenStatement(tc.Hash)}, stmts...)
		reads = append([]func(Rows) error{func(rows Rows) error { tc.Settle(scanTokenRows(rows)); return nil }}, reads...)
	}
	return s.pipe.Pipeline(ctx, stmts, func(i int, rows Rows) error { return reads[i](rows) })
}
