package sqlstore

import (
	"context"
	"time"

	"github.com/feedbackhq/feedback/server"
	"github.com/feedbackhq/feedback/shared/feedback"
)

// Login throttling of the embedded provider (idp_throttle); see
// server.IdPThrottleStore.

// ReserveIdPAttempt counts an attempt against every key in one
// transaction, each key's row held from its read to its update.
func (s *Store) ReserveIdPAttempt(ctx context.Context, keys []string, now time.Time, count server.CountAttempt) (err error) {
	defer wrap(&err, "ReserveIdPAttempt")
	now = utc(now)
	return s.db.InTx(ctx, func(tx Conn) error {
		refused := false
		for _, k := range keys {
			t, err := holdThrottle(ctx, tx, k, now)
			if err != nil {
				return err
			}
			next, ok := count(k, t)
			refused = refused || !ok
			if !refused {
				err = storeThrottle(ctx, tx, k, next)
			}
			if err != nil {
				return err
			}
		}
		if refused { // rolls back the keys counted already
			return feedback.Errorf(feedback.ERateLimited, "Too many attempts.")
		}
		return nil
	})
}

// holdThrottle returns the row of key, made at now if there is none. The
// statement is an upsert that changes nothing but holds the row until
// the transaction ends.
func holdThrottle(ctx context.Context, tx Conn, key string, now time.Time) (t server.Throttle, err error) {
	err = tx.QueryRow(ctx, `INSERT INTO idp_throttle (key, failures, last_failure_at, quiet_after) VALUES ($1, 0, $2, $2)
		ON CONFLICT (key) DO UPDATE SET failures = idp_throttle.failures
		RETURNING failures, last_failure_at, locked_until, quiet_after`, key, now).
		Scan(&t.Failures, atTime(&t.LastFailureAt), atOptTime(&t.LockedUntil), atTime(&t.QuietAfter))
	return t, err
}

func storeThrottle(ctx context.Context, tx Conn, key string, t server.Throttle) error {
	_, err := tx.Exec(ctx, `UPDATE idp_throttle SET failures = $2, last_failure_at = $3, locked_until = $4,
		quiet_after = $5 WHERE key = $1`, key, t.Failures, utc(t.LastFailureAt), timeArg(truncate(t.LockedUntil)),
		utc(t.QuietAfter))
	return err
}

// RefundIdPAttempt takes attempts back, in one transaction.
func (s *Store) RefundIdPAttempt(ctx context.Context, refunds []server.IdPRefund) (err error) {
	defer wrap(&err, "RefundIdPAttempt")
	return s.db.InTx(ctx, func(tx Conn) error {
		for _, r := range refunds {
			if err := refundThrottle(ctx, tx, r); err != nil {
				return err
			}
		}
		return nil
	})
}

// refundThrottle takes one failure back from r.Key, and lifts r.Lock if
// it is still the key's lock; or forgets the key.
func refundThrottle(ctx context.Context, tx Conn, r server.IdPRefund) error {
	if r.Forget {
		_, err := tx.Exec(ctx, `DELETE FROM idp_throttle WHERE key = $1`, r.Key)
		return err
	}
	var lock any // NULL matches no lock
	if !r.Lock.IsZero() {
		lock = utc(r.Lock)
	}
	_, err := tx.Exec(ctx, `UPDATE idp_throttle SET failures = CASE WHEN failures > 0 THEN failures - 1 ELSE 0 END,
		quiet_after = CASE WHEN locked_until = $2 THEN $3 ELSE quiet_after END,
		locked_until = CASE WHEN locked_until = $2 THEN NULL ELSE locked_until END
		WHERE key = $1`, r.Key, lock, utc(r.QuietAfter))
	return err
}
