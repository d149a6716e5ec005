package idp

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"net"
	"net/http"
	"net/netip"
	"time"

	"github.com/feedbackhq/feedback/server/sqlstore"
)

// Throttling: a key that reaches its number of failures is locked for
// throttleWindow, then twice as long at each further failure, at most
// maxLock. Its count starts again after throttleWindow without a failure
// (counted from the end of its lock).
const (
	throttleWindow = 15 * time.Minute
	maxLock        = 24 * time.Hour
	emailFailures  = 5  // per email address typed
	ipFailures     = 20 // per client address (an office behind one address has many people)
)

// throttleKey is a row of idp_throttle and its limit.
type throttleKey struct {
	key   string
	limit int
}

// signInKeys returns the keys a sign-in with email from r counts
// against: the address typed (hashed: it may name no account) and the
// client's address (its /64 for IPv6).
func signInKeys(r *http.Request, email string) []throttleKey {
	h := sha256.Sum256([]byte(normalizeEmail(email)))
	return []throttleKey{{"email:" + hex.EncodeToString(h[:]), emailFailures}, {"ip:" + clientAddr(r), ipFailures}}
}

// clientAddr returns the peer's address, or the /64 it belongs to for
// IPv6.
func clientAddr(r *http.Request) string {
	host, _, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil {
		host = r.RemoteAddr
	}
	a, err := netip.ParseAddr(host)
	if err != nil {
		return host
	}
	if a = a.Unmap(); a.Is6() {
		return netip.PrefixFrom(a, 64).Masked().String()
	}
	return a.String()
}

// throttled returns how long until every key accepts attempts again: 0
// when none is locked.
func (p *Provider) throttled(ctx context.Context, keys []throttleKey) (_ time.Duration, err error) {
	defer wrap(&err, "throttled")
	now, wait := p.now(), time.Duration(0)
	for _, k := range keys {
		var until time.Time
		err := p.cfg.DB.QueryRow(ctx, `SELECT locked_until FROM idp_throttle WHERE key = $1 AND locked_until > $2`,
			k.key, now).Scan(at(&until))
		if errors.Is(err, sqlstore.ErrNoRows) {
			continue
		}
		if err != nil {
			return 0, err
		}
		wait = max(wait, until.Sub(now))
	}
	return wait, nil
}

// fail counts a failed attempt against each key, and locks those that
// reach their limit.
func (p *Provider) fail(ctx context.Context, keys []throttleKey) (err error) {
	defer wrap(&err, "fail")
	now := p.now()
	return p.cfg.DB.InTx(ctx, func(tx sqlstore.Conn) error {
		for _, k := range keys {
			if err := failOne(ctx, tx, k, now); err != nil {
				return err
			}
		}
		return nil
	})
}

// failOne counts a failure against k. The first statement is an upsert
// that changes nothing but holds the row (PostgreSQL locks it until the
// transaction ends; SQLite has a single writer), so that concurrent
// failures are all counted.
func failOne(ctx context.Context, tx sqlstore.Conn, k throttleKey, now time.Time) error {
	var failures int
	var quiet time.Time
	err := tx.QueryRow(ctx, `INSERT INTO idp_throttle (key, failures, last_failure_at, quiet_after) VALUES ($1, 0, $2, $2)
		ON CONFLICT (key) DO UPDATE SET failures = idp_throttle.failures
		RETURNING failures, quiet_after`, k.key, now).Scan(&failures, at(&quiet))
	if err != nil {
		return err
	}
	if now.After(quiet) {
		failures = 0
	}
	failures++
	var locked any // NULL: not locked
	quiet = now.Add(throttleWindow)
	if failures >= k.limit {
		until := now.Add(lockFor(failures - k.limit))
		locked, quiet = until, until.Add(throttleWindow)
	}
	_, err = tx.Exec(ctx, `UPDATE idp_throttle SET failures = $2, last_failure_at = $3, locked_until = $4,
		quiet_after = $5 WHERE key = $1`, k.key, failures, now, locked, quiet)
	return err
}

// lockFor returns the lock after n failures beyond the limit.
func lockFor(n int) time.Duration {
	if n > 8 {
		return maxLock
	}
	return min(throttleWindow<<n, maxLock)
}

// clear forgets the failures of k, after a sign-in that succeeded.
func (p *Provider) clear(ctx context.Context, k throttleKey) error {
	_, err := p.cfg.DB.Exec(ctx, `DELETE FROM idp_throttle WHERE key = $1`, k.key)
	return err
}
