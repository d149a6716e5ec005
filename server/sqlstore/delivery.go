package sqlstore

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/feedbackhq/feedback/shared/feedback"
)

// Deliveries returns a page of a subscription's deliveries, newest
// first, each with its attempt log, and the total. Returns
// feedback.ENotFound if the subscription does not exist.
func (s *Store) Deliveries(ctx context.Context, workspaceID, webhookID string, p feedback.ListParams) (_ []feedback.WebhookDelivery, _ int, err error) {
	defer wrap(&err, "Deliveries(%s, %s)", workspaceID, webhookID)
	if !canonical(&workspaceID, &webhookID) {
		return nil, 0, notFound("webhook", webhookID)
	}
	if _, err := findWebhook(ctx, s.db, workspaceID, webhookID, ""); err != nil {
		return nil, 0, err
	}
	items, total, err := list(ctx, s, workspaceID, listQuery{table: "deliveries", columns: deliveryColumns,
		where: " AND webhook_id = $4", args: []any{webhookID}}, p, scanDelivery)
	if err != nil || len(items) == 0 {
		return items, total, err
	}
	return items, total, s.attachAttempts(ctx, s.db, workspaceID, items)
}

// attachAttempts fills the attempt logs of items in one query.
func (s *Store) attachAttempts(ctx context.Context, c Conn, workspaceID string, items []feedback.WebhookDelivery) error {
	marks := make([]string, len(items))
	args := []any{workspaceID}
	index := make(map[string]int, len(items))
	for i, d := range items {
		args = append(args, d.ID)
		marks[i] = fmt.Sprintf("$%d", len(args))
		index[d.ID] = i
	}
	rows, err := c.Query(ctx, `SELECT delivery_id, n, at, status_code, duration_ms, error, next_attempt_at
		FROM delivery_attempts WHERE workspace_id = $1 AND delivery_id IN (`+strings.Join(marks, ", ")+`)
		ORDER BY delivery_id, n`, args...)
	if err != nil {
		return err
	}
	type attempt struct {
		delivery string
		feedback.DeliveryAttempt
	}
	all, err := collect(rows, func(r Row) (attempt, error) {
		var a attempt
		err := r.Scan(&a.delivery, &a.N, at(&a.At), &a.StatusCode, &a.DurationMS, &a.Error, atOpt(&a.NextAttemptAt))
		return a, err
	})
	for _, a := range all {
		i := index[a.delivery]
		items[i].AttemptLog = append(items[i].AttemptLog, a.DeliveryAttempt)
	}
	return err
}

// delivery reads one delivery of a subscription with its attempt log.
func (s *Store) delivery(ctx context.Context, c Conn, workspaceID, webhookID, id string) (*feedback.WebhookDelivery, error) {
	d, err := one(scanDelivery(c.QueryRow(ctx, `SELECT `+deliveryColumns+` FROM deliveries
		WHERE workspace_id = $1 AND id = $2 AND webhook_id = $3`, workspaceID, id, webhookID)))
	if err != nil {
		return nil, orNotFound(err, "delivery", id)
	}
	items := []feedback.WebhookDelivery{*d}
	if err := s.attachAttempts(ctx, c, workspaceID, items); err != nil {
		return nil, err
	}
	return &items[0], nil
}

// Redeliver makes a delivery pending and due now again, whatever its
// state; its id (the webhook-id header) stays, and the retry schedule
// starts over from this attempt. A delivery leased to a worker keeps its
// lease: the worker's result decides it, as it would have. Returns
// feedback.ENotFound, and feedback.EConflict when the subscription is
// disabled (enable it first).
func (s *Store) Redeliver(ctx context.Context, workspaceID, webhookID, deliveryID string) (d *feedback.WebhookDelivery, err error) {
	defer wrap(&err, "Redeliver(%s, %s)", workspaceID, deliveryID)
	if !canonical(&workspaceID, &webhookID, &deliveryID) {
		return nil, notFound("delivery", deliveryID)
	}
	now := s.now()
	err = s.db.InTx(ctx, func(tx Conn) error {
		if err := enabledWebhook(ctx, tx, workspaceID, webhookID, s.dialect.ForUpdate); err != nil {
			return err
		}
		n, err := tx.Exec(ctx, `UPDATE deliveries SET status = 'pending', next_attempt_at = $4, schedule_base = attempts,
			updated_at = $4 WHERE workspace_id = $1 AND id = $2 AND webhook_id = $3 AND leased_by IS NULL`,
			workspaceID, deliveryID, webhookID, now)
		if err != nil {
			return err
		}
		if n > 0 {
			markDue(tx)
		}
		// No row changed when the delivery is leased (hence pending) or
		// missing, which delivery tells.
		d, err = s.delivery(ctx, tx, workspaceID, webhookID, deliveryID)
		return err
	})
	return nilOnError(d, err)
}

// PingWebhook appends a webhook.test event whose data is data and a
// delivery of it to this subscription only, due now. Returns
// feedback.ENotFound, and feedback.EConflict when the subscription is
// disabled (its deliveries would wait until it is enabled).
func (s *Store) PingWebhook(ctx context.Context, workspaceID, webhookID string, data []byte) (d *feedback.WebhookDelivery, err error) {
	defer wrap(&err, "PingWebhook(%s, %s)", workspaceID, webhookID)
	if !canonical(&workspaceID, &webhookID) {
		return nil, notFound("webhook", webhookID)
	}
	if !json.Valid(data) {
		return nil, fmt.Errorf("the data of a webhook.test event must be JSON")
	}
	err = s.db.InTx(ctx, func(tx Conn) error {
		if err := enabledWebhook(ctx, tx, workspaceID, webhookID, s.dialect.ForUpdate); err != nil {
			return err
		}
		e := feedback.Event{Type: feedback.EventWebhookTest, Data: data}
		if err := s.insertEvent(ctx, tx, workspaceID, &e); err != nil {
			return err
		}
		d, err = s.insertDelivery(ctx, tx, &e, webhookID)
		return err
	})
	return nilOnError(d, err)
}

// enabledWebhook returns feedback.ENotFound when the subscription does
// not exist and feedback.EConflict when it is disabled.
func enabledWebhook(ctx context.Context, tx Conn, workspaceID, id, lock string) error {
	w, err := findWebhook(ctx, tx, workspaceID, id, lock)
	if err == nil && w.DisabledAt != nil {
		return feedback.Errorf(feedback.EConflict, "Webhook %s is disabled (%s); enable it first.", id, w.DisabledReason)
	}
	return err
}
