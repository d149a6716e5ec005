package sqlstore

import (
	"context"
	"strings"
	"time"

	"github.com/feedbackhq/feedback/server"
	"github.com/feedbackhq/feedback/shared/feedback"
)

// maxMailError is the most bytes of a send error an alert mail keeps.
const maxMailError = 500

// insertAlertMail writes, in the alert's transaction, its mail to
// emails, due now; nothing when emails is empty.
func (s *Store) insertAlertMail(ctx context.Context, tx Conn, workspaceID, alertID string, emails []string) error {
	if len(emails) == 0 {
		return nil
	}
	to, err := jsonArg(emails)
	if err != nil {
		return err
	}
	now := s.now()
	_, err = tx.Exec(ctx, `INSERT INTO alert_mails (workspace_id, id, alert_id, recipients, attempts, next_attempt_at,
		last_error, created_at) VALUES ($1, $2, $3, $4, 0, $5, '', $5)`, workspaceID, feedback.NewIDAt(now), alertID, to, now)
	return err
}

// ClaimAlertMails leases up to limit mails due at the store's now by
// moving their next attempt to the lease's end, in one transaction that
// passes over the mails another claim holds (SKIP LOCKED on PostgreSQL;
// SQLite's writers take turns): a mail is sent by one instance, and
// again only if that instance did not finish it before its lease ended.
func (s *Store) ClaimAlertMails(ctx context.Context, lease time.Duration, limit int) (mails []server.AlertMail, err error) {
	defer wrap(&err, "ClaimAlertMails")
	now := s.now()
	err = s.db.InTx(ctx, func(tx Conn) error {
		rows, err := tx.Query(ctx, `SELECT workspace_id, id FROM alert_mails WHERE next_attempt_at <= $1
			ORDER BY next_attempt_at LIMIT $2`+s.dialect.SkipLocked, now, limit)
		if err != nil {
			return err
		}
		keys, err := collect(rows, func(r Row) ([2]string, error) {
			var k [2]string
			return k, r.Scan(&k[0], &k[1])
		})
		if err != nil {
			return err
		}
		mails = make([]server.AlertMail, 0, len(keys))
		for _, k := range keys {
			m, err := claimMail(ctx, tx, k[0], k[1], now.Add(lease))
			if err != nil {
				return err
			}
			mails = append(mails, m)
		}
		return nil
	})
	return mails, err
}

// claimMail moves a mail's next attempt to until and reads it.
func claimMail(ctx context.Context, tx Conn, workspaceID, id string, until time.Time) (server.AlertMail, error) {
	m := server.AlertMail{WorkspaceID: workspaceID, ID: id}
	_, err := tx.Exec(ctx, `UPDATE alert_mails SET next_attempt_at = $3 WHERE workspace_id = $1 AND id = $2`,
		workspaceID, id, until)
	if err != nil {
		return m, err
	}
	row := tx.QueryRow(ctx, `SELECT m.recipients, m.attempts, w.slug, COALESCE(l.name, ''), a.`+
		strings.ReplaceAll(alertColumns, ", ", ", a.")+`
		FROM alert_mails m JOIN alerts a ON a.workspace_id = m.workspace_id AND a.id = m.alert_id
		JOIN workspaces w ON w.id = m.workspace_id
		LEFT JOIN locations l ON l.workspace_id = a.workspace_id AND l.id = a.location_id
		WHERE m.workspace_id = $1 AND m.id = $2`, workspaceID, id)
	m.Alert, err = scanAlert(mailHead{r: row, m: &m})
	return m, err
}

// mailHead scans the columns of a mail before those of its alert.
type mailHead struct {
	r Row
	m *server.AlertMail
}

// Scan implements Row: the mail's columns, then dest.
func (h mailHead) Scan(dest ...any) error {
	return h.r.Scan(append([]any{asJSON(&h.m.Recipients), &h.m.Attempts, &h.m.WorkspaceSlug, &h.m.LocationName}, dest...)...)
}

// FinishAlertMail records a sent mail (sendErr nil), or schedules the
// next attempt after a backoff that doubles from 30 seconds up to an
// hour, giving up after server.MaxMailAttempts.
func (s *Store) FinishAlertMail(ctx context.Context, m *server.AlertMail, sendErr error) (err error) {
	defer wrap(&err, "FinishAlertMail(%s, %s)", m.WorkspaceID, m.ID)
	now, attempts := s.now(), m.Attempts+1
	if sendErr == nil {
		_, err = s.db.Exec(ctx, `UPDATE alert_mails SET attempts = $3, sent_at = $4, next_attempt_at = NULL, last_error = ''
			WHERE workspace_id = $1 AND id = $2`, m.WorkspaceID, m.ID, attempts, now)
		return err
	}
	var next *time.Time
	if attempts < server.MaxMailAttempts {
		t := now.Add(min(30*time.Second<<(attempts-1), time.Hour))
		next = &t
	}
	msg := sendErr.Error()
	if len(msg) > maxMailError {
		msg = msg[:maxMailError]
	}
	_, err = s.db.Exec(ctx, `UPDATE alert_mails SET attempts = $3, next_attempt_at = $4, last_error = $5
		WHERE workspace_id = $1 AND id = $2`, m.WorkspaceID, m.ID, attempts, timeArg(next), msg)
	return err
}
