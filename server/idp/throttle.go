package idp

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
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

// attempt is a sign-in attempt reserved against its keys before the
// password or code it guards is checked: it counts as a failure from the
// start, so that however many attempts run at once, no more checks run
// than the limits allow. A check that passes refunds it.
type attempt struct {
	keys []throttleKey
	// locks holds, per key, the lock this attempt set when it reached
	// the key's limit (zero: none), which a refund lifts again.
	locks []time.Time
}

// errLocked is what reserve returns, wrapped with the wait, when a key
// is locked.
type errLocked struct{ wait time.Duration }

func (e errLocked) Error() string { return "idp: locked for " + e.wait.String() }

// reserveAttempt counts an attempt against every key in one transaction. When a
// key is locked it counts nothing and returns errLocked with how long
// until every key accepts attempts again. The row of each key is held
// (PostgreSQL locks it until the transaction ends, SQLite has a single
// writer) from its read to its update, so that concurrent attempts, on
// any instance, are counted one after the other; keys are always taken
// in the same order (the email's, then the client's), so two attempts
// never wait for each other.
func (p *Provider) reserveAttempt(ctx context.Context, keys []throttleKey) (_ *attempt, err error) {
	defer wrap(&err, "reserve")
	now := p.now()
	a := &attempt{keys: keys, locks: make([]time.Time, len(keys))}
	err = p.cfg.DB.InTx(ctx, func(tx sqlstore.Conn) error {
		var wait time.Duration
		for i, k := range keys {
			lock, w, err := reserveOne(ctx, tx, k, now)
			if err != nil {
				return err
			}
			a.locks[i], wait = lock, max(wait, w)
		}
		if wait > 0 {
			return errLocked{wait} // rolls back the keys counted already
		}
		return nil
	})
	return a, err
}

// reserveOne counts an attempt against k at now, unless k is locked:
// it then returns the wait. The first statement is an upsert that
// changes nothing but holds the row. It returns the lock it set when the
// attempt reached k's limit.
func reserveOne(ctx context.Context, tx sqlstore.Conn, k throttleKey, now time.Time) (time.Time, time.Duration, error) {
	var failures int
	var quiet time.Time
	var locked *time.Time
	err := tx.QueryRow(ctx, `INSERT INTO idp_throttle (key, failures, last_failure_at, quiet_after) VALUES ($1, 0, $2, $2)
		ON CONFLICT (key) DO UPDATE SET failures = idp_throttle.failures
		RETURNING failures, quiet_after, locked_until`, k.key, now).Scan(&failures, at(&quiet), atOpt(&locked))
	if err != nil {
		return time.Time{}, 0, err
	}
	if locked != nil && locked.After(now) {
		return time.Time{}, locked.Sub(now), nil
	}
	if now.After(quiet) {
		failures = 0
	}
	failures++
	var lock time.Time
	var lockArg any // NULL: not locked
	quiet = now.Add(throttleWindow)
	if failures >= k.limit {
		lock = now.Add(lockFor(failures - k.limit))
		lockArg, quiet = lock, lock.Add(throttleWindow)
	}
	_, err = tx.Exec(ctx, `UPDATE idp_throttle SET failures = $2, last_failure_at = $3, locked_until = $4,
		quiet_after = $5 WHERE key = $1`, k.key, failures, now, lockArg, quiet)
	return lock, 0, err
}

// refund takes back attempt a from its keys after its check passed: one
// failure fewer, and the lock it set lifted (a lock set since by another
// attempt stays). With forget, the first key (the email address's) is
// forgotten instead, after a sign-in that is complete, so that the right
// password alone never resets the count of wrong codes.
func (p *Provider) refund(ctx context.Context, a *attempt, forget bool) (err error) {
	defer wrap(&err, "refund")
	now := p.now()
	return p.cfg.DB.InTx(ctx, func(tx sqlstore.Conn) error {
		for i, k := range a.keys {
			var err error
			if i == 0 && forget {
				_, err = tx.Exec(ctx, `DELETE FROM idp_throttle WHERE key = $1`, k.key)
			} else {
				err = refundOne(ctx, tx, k, a.locks[i], now)
			}
			if err != nil {
				return err
			}
		}
		return nil
	})
}

// refundOne takes one failure back from k, and lifts lock if it is still
// k's lock.
func refundOne(ctx context.Context, tx sqlstore.Conn, k throttleKey, lock, now time.Time) error {
	var lockArg any // NULL matches no lock
	if !lock.IsZero() {
		lockArg = lock
	}
	_, err := tx.Exec(ctx, `UPDATE idp_throttle SET failures = CASE WHEN failures > 0 THEN failures - 1 ELSE 0 END,
		quiet_after = CASE WHEN locked_until = $2 THEN $3 ELSE quiet_after END,
		locked_until = CASE WHEN locked_until = $2 THEN NULL ELSE locked_until END
		WHERE key = $1`, k.key, lockArg, now.Add(throttleWindow))
	return err
}

// lockFor returns the lock after n failures beyond the limit.
func lockFor(n int) time.Duration {
	if n > 8 {
		return maxLock
	}
	return min(throttleWindow<<n, maxLock)
}
