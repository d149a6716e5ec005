package postgres

import (
	"context"
	"fmt"
	"sync"
	"sync/atomic"
	"time"

	"github.com/feedbackhq/feedback/server"
	"github.com/feedbackhq/feedback/server/inmem"
	"github.com/jackc/pgx/v5/pgxpool"
)

// Rate-limit windows are deleted sweepAfter after they end, by the first
// Take of a process every sweepEvery.
const (
	sweepEvery = 5 * time.Minute
	sweepAfter = time.Hour
)

// Limiter counts requests in fixed windows in the rate_limits table, so
// that all instances share one budget: an atomic upsert reserves a lease
// of the window's requests (see [leaseSize]) and returns the window's
// count, so that at most limit calls of a window are allowed however
// many processes make them, and exactly limit when one process does.
type Limiter struct {
	pool      *pgxpool.Pool
	now       func() time.Time
	nextSweep atomic.Int64 // Unix microseconds
	leases    leases
	// workspaces maps the hashes of tokens seen to what never changes of
	// them (a *server.Token with workspace, id and name), so that a
	// request of a known token finds its lease before it reads the token.
	workspaces sync.Map
	known      atomic.Int64 // entries of workspaces
}

var (
	_ server.Limiter      = (*Limiter)(nil)
	_ server.TokenLimiter = (*DB)(nil)
)

// Take counts one request against key's budget of limit per window. A key
// must always be used with the same window.
func (l *Limiter) Take(ctx context.Context, key string, limit int, window time.Duration) (server.Quota, error) {
	now := l.now()
	start, end := inmem.Window(now, window)
	q, refill, err := l.leases.take(ctx, key, start, end, limit)
	if err != nil || refill == nil {
		return q, err
	}
	n := leaseSize(limit)
	var count int
	err = l.pool.QueryRow(ctx, `INSERT INTO rate_limits (key, window_start, window_end, count) VALUES ($1, $2, $3, $4)
		ON CONFLICT (key, window_start) DO UPDATE SET count = rate_limits.count + $4
		RETURNING count`, key, start, end, n).Scan(&count)
	if err != nil {
		l.leases.abort(refill)
		return server.Quota{}, fmt.Errorf("postgres: rate limit %s: %w", key, err)
	}
	l.sweep(ctx, now)
	return l.leases.grant(refill, key, start, end, limit, count, n), nil
}

// sweep deletes old windows when this process has not done so for
// sweepEvery. Its error is ignored: the next sweep tries again.
func (l *Limiter) sweep(ctx context.Context, now time.Time) {
	next := l.nextSweep.Load()
	if now.UnixMicro() < next || !l.nextSweep.CompareAndSwap(next, now.Add(sweepEvery).UnixMicro()) {
		return
	}
	_, _ = l.pool.Exec(ctx, `DELETE FROM rate_limits WHERE window_end < $1`, now.Add(-sweepAfter))
}

// TakeToken implements [server.TokenLimiter]: a token whose workspace
// holds a lease is read alone; otherwise one statement reads the token
// and reserves a lease of its workspace's window.
func (db *DB) TakeToken(ctx context.Context, hash []byte, prefix string, limit int, window time.Duration) (*server.Token, server.Quota, error) {
	l := db.limiter
	now := l.now()
	start, end := inmem.Window(now, window)
	var refill *lease
	if known, ok := l.workspaces.Load(string(hash)); ok {
		key := prefix + known.(*server.Token).WorkspaceID
		q, r, err := l.leases.take(ctx, key, start, end, limit)
		if err != nil {
			return nil, server.Quota{}, err
		}
		if r == nil {
			return db.readToken(ctx, hash, key, start, q)
		}
		refill = r
	}
	n := leaseSize(limit)
	t, count, err := db.TokenByHashCounting(ctx, hash, prefix, start, end, n)
	if err != nil || t.RevokedAt != nil {
		l.leases.abort(refill)
		return t, server.Quota{}, err
	}
	l.remember(hash, t)
	l.sweep(ctx, now)
	return t, l.leases.grant(refill, prefix+t.WorkspaceID, start, end, limit, count, n), nil
}

// readToken reads the token of hash for a request that the lease of key
// answered with q: a revoked or missing token gives its request back.
func (db *DB) readToken(ctx context.Context, hash []byte, key string, start time.Time, q server.Quota) (*server.Token, server.Quota, error) {
	t, err := db.TokenByHash(ctx, hash)
	if err != nil || t.RevokedAt != nil {
		if q.Allowed {
			db.limiter.leases.refund(key, start)
		}
		return t, server.Quota{}, err
	}
	return t, q, nil
}

// remember keeps what never changes of the token of hash, forgetting
// them all past 100,000 tokens.
func (l *Limiter) remember(hash []byte, t *server.Token) {
	if _, had := l.workspaces.Swap(string(hash), &server.Token{WorkspaceID: t.WorkspaceID, ID: t.ID, Name: t.Name}); had {
		return
	}
	if l.known.Add(1) > 100_000 {
		l.workspaces.Clear()
		l.known.Store(0)
	}
}

// TakeKnownToken implements [server.TokenLimiter].
func (db *DB) TakeKnownToken(hash []byte, prefix string, limit int, window time.Duration) (*server.Token, server.Quota, bool) {
	l := db.limiter
	known, ok := l.workspaces.Load(string(hash))
	if !ok {
		return nil, server.Quota{}, false
	}
	t := *known.(*server.Token)
	start, end := inmem.Window(l.now(), window)
	q, ok := l.leases.tryTake(prefix+t.WorkspaceID, start, end, limit)
	return &t, q, ok
}

// RefundToken implements [server.TokenLimiter].
func (db *DB) RefundToken(t *server.Token, prefix string, window time.Duration) {
	start, _ := inmem.Window(db.limiter.now(), window)
	db.limiter.leases.refund(prefix+t.WorkspaceID, start)
}
