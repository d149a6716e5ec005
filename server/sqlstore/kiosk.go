package sqlstore

import (
	"context"
	"errors"
	"time"

	"github.com/feedbackhq/feedback/server"
	"github.com/feedbackhq/feedback/shared/feedback"
)

const (
	kioskColumns = "workspace_id, id, name, location_id, form, review_id, survey_id, credential_hash, " +
		"created_at, last_seen_at, queue_depth, app_version, revoked_at, reset_seconds, idle_seconds, interval_seconds, online"
	pairingCodeColumns = "workspace_id, hash, location_id, form, review_id, survey_id, name, expires_at, used_at, created_at, " +
		"reset_seconds, idle_seconds, interval_seconds"
)

// CreatePairingCode stores c with created_at. Returns feedback.ENotFound
// naming location_id, review_id or survey_id when they do not exist in
// the workspace, and feedback.EConflict if the hash is taken.
func (s *Store) CreatePairingCode(ctx context.Context, c *server.PairingCode) (err error) {
	defer wrap(&err, "CreatePairingCode(%s)", c.WorkspaceID)
	if !canonical(&c.WorkspaceID) {
		return notFound("workspace", c.WorkspaceID)
	}
	c.CreatedAt = s.now()
	c.ExpiresAt = c.ExpiresAt.UTC().Truncate(time.Microsecond)
	return s.db.InTx(ctx, func(tx Conn) error {
		if err := checkForm(ctx, tx, c.WorkspaceID, &c.LocationID, &c.FormRef); err != nil {
			return err
		}
		t := feedback.DefaultKioskTiming
		if c.Timing != nil {
			t = *c.Timing
		}
		_, err := tx.Exec(ctx, `INSERT INTO kiosk_pairing_codes (`+pairingCodeColumns+`)
			VALUES ($1, $2, $3, $4, $5, $6, $7, $8, NULL, $9, $10, $11, $12)`,
			c.WorkspaceID, c.Hash, c.LocationID, c.Form, Null(c.ReviewID), Null(c.SurveyID), c.Name, c.ExpiresAt, c.CreatedAt,
			t.ResetSeconds, t.IdleSeconds, t.IntervalSeconds)
		return createError(err, "workspace", c.WorkspaceID)
	})
}

// PairKiosk consumes the unexpired, unused code with hash codeHash (whose
// location still exists) and stores k, with a new id unless set, for the
// code's workspace, location and form, filling them into k; k.Name
// defaults to the code's name. Returns feedback.ENotFound if there is no
// such code.
func (s *Store) PairKiosk(ctx context.Context, codeHash []byte, k *server.Kiosk) (err error) {
	defer wrap(&err, "PairKiosk")
	if err := canonicalNew(&k.ID); err != nil {
		return err
	}
	now := s.now()
	return s.db.InTx(ctx, func(tx Conn) error {
		var name string
		err := tx.QueryRow(ctx, `UPDATE kiosk_pairing_codes AS c SET used_at = $2
			WHERE hash = $1 AND used_at IS NULL AND expires_at > $2 AND EXISTS (SELECT 1 FROM locations l
				WHERE l.workspace_id = c.workspace_id AND l.id = c.location_id AND l.deleted_at IS NULL)
			RETURNING workspace_id, location_id, form, review_id, survey_id, name, reset_seconds, idle_seconds, interval_seconds`,
			codeHash, now).
			Scan(&k.WorkspaceID, &k.LocationID, &k.Form, OptString{&k.ReviewID}, OptString{&k.SurveyID}, &name,
				&k.Timing.ResetSeconds, &k.Timing.IdleSeconds, &k.Timing.IntervalSeconds)
		if errors.Is(err, ErrNoRows) {
			return feedback.Errorf(feedback.ENotFound, "The pairing code is unknown, expired or used.")
		}
		if err != nil {
			return err
		}
		if k.Name == "" {
			k.Name = name
		}
		k.ID, k.PairedAt = s.newID(k.ID), feedback.NewTime(now)
		k.LastSeenAt, k.QueueDepth, k.AppVersion, k.Online, k.RevokedAt = nil, 0, "", false, nil
		_, err = tx.Exec(ctx, `INSERT INTO kiosks (`+kioskColumns+`)
			VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, NULL, 0, '', NULL, $10, $11, $12, false)`,
			k.WorkspaceID, k.ID, k.Name, k.LocationID, k.Form, Null(k.ReviewID), Null(k.SurveyID), k.CredentialHash, now,
			k.Timing.ResetSeconds, k.Timing.IdleSeconds, k.Timing.IntervalSeconds)
		return createError(err, "workspace", k.WorkspaceID)
	})
}

// KioskByCredential returns the kiosk, revoked or not, whose credential
// hash is hash. Returns feedback.ENotFound.
func (s *Store) KioskByCredential(ctx context.Context, hash []byte) (_ *server.Kiosk, err error) {
	defer wrap(&err, "KioskByCredential")
	k, err := one(s.scanKiosk(s.db.QueryRow(ctx, `SELECT `+kioskColumns+` FROM kiosks WHERE credential_hash = $1`, hash)))
	if errors.Is(err, ErrNoRows) {
		return nil, feedback.Errorf(feedback.ENotFound, "No kiosk has this credential.")
	}
	return k, err
}

// Kiosks returns a page of kiosks, newest first, and the total.
func (s *Store) Kiosks(ctx context.Context, workspaceID string, p feedback.ListParams) (_ []server.Kiosk, _ int, err error) {
	defer wrap(&err, "Kiosks(%s)", workspaceID)
	if !canonical(&workspaceID) {
		return []server.Kiosk{}, 0, nil
	}
	return list(ctx, s, workspaceID, listQuery{table: "kiosks", columns: kioskColumns}, p, s.scanKiosk)
}

// RevokeKiosk revokes a kiosk's credential; revoking twice keeps the
// first time. A kiosk marked online goes offline with a kiosk.offline
// event, in the same transaction. Returns feedback.ENotFound.
func (s *Store) RevokeKiosk(ctx context.Context, workspaceID, id string) (err error) {
	defer wrap(&err, "RevokeKiosk(%s, %s)", workspaceID, id)
	if !canonical(&workspaceID, &id) {
		return notFound("kiosk", id)
	}
	return s.db.InTx(ctx, func(tx Conn) error {
		if err := s.lockRecord(ctx, tx, id); err != nil {
			return err
		}
		if _, err := s.markOffline(ctx, tx, "workspace_id = $1 AND id = $2", workspaceID, id); err != nil {
			return err
		}
		n, err := tx.Exec(ctx, `UPDATE kiosks SET revoked_at = COALESCE(revoked_at, $3)
			WHERE workspace_id = $1 AND id = $2`, workspaceID, id, s.now())
		if err == nil && n == 0 {
			return notFound("kiosk", id)
		}
		return err
	})
}

// KioskHeartbeat records that the kiosk was seen at the store's now, with
// its queue depth and app version, and marks it online (see
// [Store.contact]). Returns feedback.ENotFound.
func (s *Store) KioskHeartbeat(ctx context.Context, workspaceID, id string, hb feedback.Heartbeat) (err error) {
	defer wrap(&err, "KioskHeartbeat(%s, %s)", workspaceID, id)
	return s.contact(ctx, workspaceID, id, `last_seen_at = $3, queue_depth = $4, app_version = $5`,
		s.now(), hb.QueueDepth, hb.AppVersion)
}

// KioskSynced implements [server.KioskStore]; like a heartbeat, a sync
// marks the kiosk online (see [Store.contact]).
func (s *Store) KioskSynced(ctx context.Context, workspaceID, id string, depth *int, left int) (err error) {
	defer wrap(&err, "KioskSynced(%s, %s)", workspaceID, id)
	return s.contact(ctx, workspaceID, id, `last_seen_at = $3,
		queue_depth = CASE WHEN COALESCE($4, queue_depth) > $5 THEN COALESCE($4, queue_depth) - $5 ELSE 0 END`,
		s.now(), depth, left)
}

// scanKiosk reads a kiosk.
func (s *Store) scanKiosk(r Row) (server.Kiosk, error) {
	var k server.Kiosk
	err := r.Scan(&k.WorkspaceID, &k.ID, &k.Name, &k.LocationID, &k.Form, OptString{&k.ReviewID}, OptString{&k.SurveyID},
		&k.CredentialHash, at(&k.PairedAt), atOpt(&k.LastSeenAt), &k.QueueDepth, &k.AppVersion, atOpt(&k.RevokedAt),
		&k.Timing.ResetSeconds, &k.Timing.IdleSeconds, &k.Timing.IntervalSeconds, &k.Online)
	return k, err
}
