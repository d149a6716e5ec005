package idp

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"net"
	"net/http"
	"net/netip"
	"slices"
	"time"

	"github.com/feedbackhq/feedback/server"
	"github.com/feedbackhq/feedback/shared/feedback"
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
	host, _, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil {
		host = r.RemoteAddr
	}
	return throttleKeys(email, host)
}

// throttleKeys returns the keys of an attempt with email from the client
// address host.
func throttleKeys(email, host string) []throttleKey {
	h := sha256.Sum256([]byte(normalizeEmail(email)))
	return []throttleKey{{"email:" + hex.EncodeToString(h[:]), emailFailures}, {"ip:" + clientAddr(host), ipFailures}}
}

// clientAddr returns the client address host, or the /64 it belongs to
// for IPv6.
func clientAddr(host string) string {
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

// reserveAttempt counts an attempt against every key in one transaction
// of the store, which holds each key's row from its read to its update
// (server.IdPThrottleStore), so that concurrent attempts, on any
// instance, are counted one after the other; keys are always given in
// the same order (the email's, then the client's), so two attempts never
// wait for each other. When a key is locked it counts nothing and
// returns errLocked with how long until every key accepts attempts again.
func (p *Provider) reserveAttempt(ctx context.Context, keys []throttleKey) (_ *attempt, err error) {
	defer wrap(&err, "reserve")
	now := p.now()
	a := &attempt{keys: keys, locks: make([]time.Time, len(keys))}
	names := make([]string, len(keys))
	for i, k := range keys {
		names[i] = k.key
	}
	var wait time.Duration
	err = p.cfg.Store.ReserveIdPAttempt(ctx, names, now, func(key string, t server.Throttle) (server.Throttle, bool) {
		i := slices.Index(names, key)
		next, lock, w := countAttempt(keys[i], t, now)
		a.locks[i], wait = lock, max(wait, w)
		return next, w == 0
	})
	if feedback.ErrorCode(err) == feedback.ERateLimited {
		return a, errLocked{wait}
	}
	return a, err
}

// countAttempt is the policy: how an attempt at now counts against the
// row t of k. While k is locked it is refused, with the wait. Otherwise
// it is one failure more (the count starts again once t is quiet), and
// when it reaches k's limit it locks k, and returns that lock.
func countAttempt(k throttleKey, t server.Throttle, now time.Time) (next server.Throttle, lock time.Time, wait time.Duration) {
	if t.LockedUntil != nil && t.LockedUntil.After(now) {
		return t, time.Time{}, t.LockedUntil.Sub(now)
	}
	failures := t.Failures
	if now.After(t.QuietAfter) {
		failures = 0
	}
	failures++
	next = server.Throttle{Failures: failures, LastFailureAt: now, QuietAfter: now.Add(throttleWindow)}
	if failures >= k.limit {
		lock = now.Add(lockFor(failures - k.limit))
		next.LockedUntil, next.QuietAfter = &lock, lock.Add(throttleWindow)
	}
	return next, lock, 0
}

// refund takes back attempt a from its keys after its check passed: one
// failure fewer, and the lock it set lifted (a lock set since by another
// attempt stays). With forget, the first key (the email address's) is
// forgotten instead, after a sign-in that is complete, so that the right
// password alone never resets the count of wrong codes.
func (p *Provider) refund(ctx context.Context, a *attempt, forget bool) (err error) {
	defer wrap(&err, "refund")
	quiet := p.now().Add(throttleWindow)
	refunds := make([]server.IdPRefund, len(a.keys))
	for i, k := range a.keys {
		refunds[i] = server.IdPRefund{Key: k.key, Lock: a.locks[i], QuietAfter: quiet, Forget: i == 0 && forget}
	}
	return p.cfg.Store.RefundIdPAttempt(ctx, refunds)
}

// lockFor returns the lock after n failures beyond the limit.
func lockFor(n int) time.Duration {
	if n > 8 {
		return maxLock
	}
	return min(throttleWindow<<n, maxLock)
}
