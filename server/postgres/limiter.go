package postgres

import (
	"context"
	"fmt"
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
// that all instances share one budget: each Take is one atomic upsert
// that returns the window's count, and exactly limit calls of a window
// are allowed however many processes make them.
type Limiter struct {
	pool      *pgxpool.Pool
	now       func() time.Time
	nextSweep atomic.Int64 // Unix microseconds
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
	var count int
	err := l.pool.QueryRow(ctx, `INSERT INTO rate_limits (key, window_start, window_end, count) VALUES ($1, $2, $3, 1)
		ON CONFLICT (key, window_start) DO UPDATE SET count = rate_limits.count + 1
		RETURNING count`, key, start, end).Scan(&count)
	if err != nil {
		return server.Quota{}, fmt.Errorf("postgres: rate limit %s: %w", key, err)
	}
	l.sweep(ctx, now)
	return inmem.NewQuota(count, limit, end), nil
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

// TakeToken implements [server.TokenLimiter] with one statement that
// reads the token and counts the request in its workspace's window.
func (db *DB) TakeToken(ctx context.Context, hash []byte, prefix string, limit int, window time.Duration) (*server.Token, server.Quota, error) {
	now := db.limiter.now()
	start, end := inmem.Window(now, window)
	t, count, err := db.TokenByHashCounting(ctx, hash, prefix, start, end)
	if err != nil || t.RevokedAt != nil {
		return t, server.Quota{}, err
	}
	db.limiter.sweep(ctx, now)
	return t, inmem.NewQuota(count, limit, end), nil
}
