package sqlstore

import (
	"context"
	"fmt"

	"github.com/feedbackhq/feedback/shared/feedback"
)

// deliveryColumns are the columns of a delivery as the API shows it.
const deliveryColumns = "workspace_id, id, webhook_id, event_id, event_type, status, attempts, " +
	"next_attempt_at, last_status_code, last_error, created_at, delivered_at"

// fanOut writes, in the transaction of event e, one pending delivery due
// now per enabled subscription of the workspace that listens to e's type
// or to "*": one INSERT ... SELECT, whatever the number of
// subscriptions. webhook.test events go only to the subscription pinged
// (see PingWebhook).
func (s *Store) fanOut(ctx context.Context, tx Conn, e *feedback.Event) error {
	if e.Type == feedback.EventWebhookTest {
		return nil
	}
	now := e.Timestamp.Time
	n, err := tx.Exec(ctx, s.fanOutSQL("", "$2", "$3", "$4", "$5", "$6"),
		e.WorkspaceID, e.Seq, e.ID, e.Type, now, feedback.NewIDAt(now)[:19])
	if n > 0 {
		markDue(tx)
	}
	return err
}

// fanOutSQL is fanOut's statement: the expressions (parameters, or
// columns of from, which precedes webhook_events in the FROM clause) of
// the event's seq, id, type and time, and of the first 19 characters of
// the new rows' ids (see Dialect.RowID); $1 is the workspace.
func (s *Store) fanOutSQL(from, seq, id, typ, at, idPrefix string) string {
	return `INSERT INTO deliveries (workspace_id, id, webhook_id, event_seq, event_id, event_type,
			status, attempts, schedule_base, next_attempt_at, last_status_code, last_error, created_at, updated_at)
		SELECT we.workspace_id, ` + fmt.Sprintf(s.dialect.RowID, idPrefix) + `, we.webhook_id, ` + seq + `, ` + id + `, ` + typ + `,
			'pending', 0, 0, ` + at + `, 0, '', ` + at + `, ` + at + `
		FROM ` + from + `webhook_events we JOIN webhooks w ON w.workspace_id = we.workspace_id AND w.id = we.webhook_id
		WHERE we.workspace_id = $1 AND we.event IN (` + typ + `, '*') AND w.disabled_at IS NULL`
}

// insertDelivery writes one pending delivery, due now, of event e to
// subscription webhookID, and returns it.
func (s *Store) insertDelivery(ctx context.Context, tx Conn, e *feedback.Event, webhookID string) (*feedback.WebhookDelivery, error) {
	now := e.Timestamp
	d := feedback.WebhookDelivery{ID: feedback.NewIDAt(now.Time), WebhookID: webhookID, EventID: e.ID,
		EventType: e.Type, Status: feedback.DeliveryPending, NextAttemptAt: &now, CreatedAt: now,
		AttemptLog: []feedback.DeliveryAttempt{}}
	_, err := tx.Exec(ctx, `INSERT INTO deliveries (workspace_id, id, webhook_id, event_seq, event_id, event_type,
			status, attempts, schedule_base, next_attempt_at, last_status_code, last_error, created_at, updated_at)
		VALUES ($1, $2, $3, $4, $5, $6, 'pending', 0, 0, $7, 0, '', $7, $7)`,
		e.WorkspaceID, d.ID, webhookID, e.Seq, e.ID, e.Type, now.Time)
	markDue(tx)
	return &d, err
}

// scanDelivery reads deliveryColumns.
func scanDelivery(r Row) (feedback.WebhookDelivery, error) {
	var d feedback.WebhookDelivery
	var ws string
	err := r.Scan(&ws, &d.ID, &d.WebhookID, &d.EventID, &d.EventType, &d.Status, &d.Attempts,
		atOpt(&d.NextAttemptAt), &d.LastStatusCode, &d.LastError, at(&d.CreatedAt), atOpt(&d.DeliveredAt))
	d.AttemptLog = []feedback.DeliveryAttempt{}
	return d, err
}
