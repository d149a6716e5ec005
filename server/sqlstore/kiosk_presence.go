package sqlstore

import (
	"context"
	"errors"
	"time"

	"github.com/feedbackhq/feedback/shared/feedback"
)

// KioskOnlineWindow is how long a kiosk marked online stays so without
// a heartbeat or sync: three missed heartbeats of one a minute make it
// offline, at the first [Store.MarkKiosksOffline] after.
const KioskOnlineWindow = 3 * time.Minute

// sweepBatch is the most kiosks one transaction of
// [Store.MarkKiosksOffline] marks offline, well below the events a
// transaction may write (MaxTxEvents).
const sweepBatch = 500

// presenceColumns are the columns of a kiosk that the data of its
// kiosk.online and kiosk.offline events holds, after its workspace.
const presenceColumns = "workspace_id, id, location_id, name, last_seen_at, queue_depth, app_version"

// presence is a kiosk's presence event: its workspace and data.
type presence struct {
	workspaceID string
	data        feedback.KioskPresence
}

// MarkKiosksOffline marks offline every kiosk marked online whose last
// heartbeat or sync is KioskOnlineWindow or more before the store's now,
// and writes one kiosk.offline event for each, in the transaction that
// marks it (one per sweepBatch kiosks). Instances may run it at once:
// each kiosk is marked, and its event written, by one of them (on
// PostgreSQL a sweep passes over the kiosks that another sweep or a
// heartbeat holds, FOR NO KEY UPDATE SKIP LOCKED, and the UPDATE checks
// again that the kiosk is online and silent). Returns how many kiosks
// it marked.
func (s *Store) MarkKiosksOffline(ctx context.Context) (n int, err error) {
	defer wrap(&err, "MarkKiosksOffline")
	before := s.now().Add(-KioskOnlineWindow)
	for {
		var marked int
		err := s.db.InTx(ctx, func(tx Conn) error {
			var err error
			marked, err = s.markOffline(ctx, tx, `last_seen_at <= $1 AND (workspace_id, id) IN (
				SELECT workspace_id, id FROM kiosks WHERE online AND last_seen_at <= $1 LIMIT $2`+s.dialect.SkipLocked+`)`,
				before, sweepBatch)
			return err
		})
		n += marked
		if err != nil || marked < sweepBatch {
			return n, err
		}
	}
}

// markOffline marks offline, in tx, the kiosks marked online that match
// cond (a condition on kiosks whose parameters are args), with one
// kiosk.offline event each, and returns how many.
func (s *Store) markOffline(ctx context.Context, tx Conn, cond string, args ...any) (int, error) {
	rows, err := tx.Query(ctx, `UPDATE kiosks SET online = false WHERE online AND `+cond+`
		RETURNING `+presenceColumns, args...)
	if err != nil {
		return 0, err
	}
	gone, err := collect(rows, scanPresence)
	if err != nil {
		return 0, err
	}
	for _, p := range gone {
		if err := s.appendEvent(ctx, tx, p.workspaceID, feedback.EventKioskOffline, p.data); err != nil {
			return 0, err
		}
	}
	return len(gone), nil
}

// contact records a contact of a kiosk in one transaction: set (SQL
// assignments to kiosks' columns whose parameters, from $3, are args)
// and, when the kiosk is neither marked online nor revoked, online with
// a kiosk.online event. The UPDATE that marks it online is conditional,
// so of concurrent contacts one marks it and writes the event (on
// PostgreSQL the others wait for its row and then find it online). It
// first takes the kiosk's [Store.lockRecord] lock, as the transactions
// that mark it offline for a person (RevokeKiosk, DeleteLocation) do:
// its kiosk.online and their kiosk.offline are numbered in the order in
// which they commit. Returns feedback.ENotFound.
func (s *Store) contact(ctx context.Context, workspaceID, id, set string, args ...any) error {
	if !canonical(&workspaceID, &id) {
		return notFound("kiosk", id)
	}
	args = append([]any{workspaceID, id}, args...)
	return s.db.InTx(ctx, func(tx Conn) error {
		if err := s.lockRecord(ctx, tx, id); err != nil {
			return err
		}
		p, err := scanPresence(tx.QueryRow(ctx, `UPDATE kiosks SET `+set+`, online = true
			WHERE workspace_id = $1 AND id = $2 AND NOT online AND revoked_at IS NULL
			RETURNING `+presenceColumns, args...))
		switch {
		case err == nil:
			return s.appendEvent(ctx, tx, workspaceID, feedback.EventKioskOnline, p.data)
		case !errors.Is(err, ErrNoRows):
			return err
		}
		n, err := tx.Exec(ctx, `UPDATE kiosks SET `+set+` WHERE workspace_id = $1 AND id = $2`, args...)
		if err == nil && n == 0 {
			return notFound("kiosk", id)
		}
		return err
	})
}

// scanPresence reads presenceColumns.
func scanPresence(r Row) (presence, error) {
	var p presence
	d := &p.data
	err := r.Scan(&p.workspaceID, &d.KioskID, &d.LocationID, &d.Name, at(&d.LastSeenAt), &d.QueueDepth, &d.AppVersion)
	return p, err
}

// lockKiosksAt takes [Store.lockRecord]'s lock of every kiosk of a
// location that is not revoked, in the order of their ids, for a
// transaction that marks them offline: call it before tx writes
// anything. A kiosk paired while it runs is not locked; it is not
// online yet either.
func (s *Store) lockKiosksAt(ctx context.Context, tx Conn, workspaceID, locationID string) error {
	if s.dialect.LockRecord == "" {
		return nil
	}
	rows, err := tx.Query(ctx, `SELECT id FROM kiosks
		WHERE workspace_id = $1 AND location_id = $2 AND revoked_at IS NULL ORDER BY id`, workspaceID, locationID)
	if err != nil {
		return err
	}
	ids, err := collect(rows, scanString)
	for _, id := range ids {
		if err == nil {
			err = s.lockRecord(ctx, tx, id)
		}
	}
	return err
}
