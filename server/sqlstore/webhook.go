package sqlstore

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/feedbackhq/feedback/server"
	"github.com/feedbackhq/feedback/shared/feedback"
)

const webhookColumns = "workspace_id, id, url, events, secret_prefix, secret, created_at, updated_at, " +
	"disabled_at, disabled_reason, previous_secret, previous_secret_until"

// CreateWebhook stores w, enabled and without a previous secret, with a
// new id (unless set), created_at and updated_at, and the rows of its
// event names that the fan-out of events reads. Returns
// feedback.ENotFound if the workspace does not exist.
func (s *Store) CreateWebhook(ctx context.Context, w *server.Webhook) (err error) {
	defer wrap(&err, "CreateWebhook(%s)", w.WorkspaceID)
	if !canonical(&w.WorkspaceID) {
		return notFound("workspace", w.WorkspaceID)
	}
	if err := canonicalNew(&w.ID); err != nil {
		return err
	}
	w.ID = s.newID(w.ID)
	w.CreatedAt = feedback.NewTime(s.now())
	w.UpdatedAt, w.DisabledAt, w.DisabledReason = w.CreatedAt, nil, ""
	w.PreviousSecret, w.PreviousSecretUntil = nil, nil
	if w.Events == nil {
		w.Events = []string{}
	}
	events, err := jsonArg(w.Events)
	if err != nil {
		return err
	}
	return s.db.InTx(ctx, func(tx Conn) error {
		_, err := tx.Exec(ctx, `INSERT INTO webhooks (workspace_id, id, url, events, secret_prefix, secret, created_at, updated_at)
			VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
			w.WorkspaceID, w.ID, w.URL, events, w.SecretPrefix, w.Secret, w.CreatedAt.Time, w.UpdatedAt.Time)
		if err != nil {
			return createError(err, "workspace", w.WorkspaceID)
		}
		return insertWebhookEvents(ctx, tx, w.WorkspaceID, w.ID, w.Events)
	})
}

// Webhook returns a subscription, with its previous secret as stored
// (see PreviousSecretUntil). Returns feedback.ENotFound.
func (s *Store) Webhook(ctx context.Context, workspaceID, id string) (_ *server.Webhook, err error) {
	defer wrap(&err, "Webhook(%s, %s)", workspaceID, id)
	if !canonical(&workspaceID, &id) {
		return nil, notFound("webhook", id)
	}
	return findWebhook(ctx, s.db, workspaceID, id, "")
}

// Webhooks returns a page of subscriptions, newest first, and the total.
func (s *Store) Webhooks(ctx context.Context, workspaceID string, p feedback.ListParams) (_ []server.Webhook, _ int, err error) {
	defer wrap(&err, "Webhooks(%s)", workspaceID)
	if !canonical(&workspaceID) {
		return []server.Webhook{}, 0, nil
	}
	return list(ctx, s, workspaceID, listQuery{table: "webhooks", columns: webhookColumns}, p, scanWebhook)
}

// apiDisabled is the disabled_reason of a subscription disabled through
// UpdateWebhook.
const apiDisabled = "disabled through the API"

// UpdateWebhook applies c and sets updated_at, in one transaction:
//   - URL replaces the URL, and Events the names and their rows;
//   - Secret rotates: the current secret becomes the previous one, which
//     signs until now + feedback.SecretOverlap, and SecretPrefix is the
//     new secret's; any update drops a previous secret whose overlap has
//     ended;
//   - Enabled true clears disabled_at and disabled_reason; false disables
//     an enabled subscription, "disabled through the API" (a disabled one
//     keeps its time and reason).
//
// Deliveries stay as they are: the pending ones of a disabled
// subscription wait, never claimed, and go out if it is enabled again.
// Returns feedback.ENotFound.
func (s *Store) UpdateWebhook(ctx context.Context, workspaceID, id string, c server.WebhookChange) (w *server.Webhook, err error) {
	defer wrap(&err, "UpdateWebhook(%s, %s)", workspaceID, id)
	if !canonical(&workspaceID, &id) {
		return nil, notFound("webhook", id)
	}
	err = s.db.InTx(ctx, func(tx Conn) error {
		w, err = findWebhook(ctx, tx, workspaceID, id, s.dialect.ForUpdate)
		if err != nil {
			return err
		}
		changeWebhook(w, c, s.now())
		events, err := jsonArg(w.Events)
		if err != nil {
			return err
		}
		_, err = tx.Exec(ctx, `UPDATE webhooks SET url = $3, events = $4, secret_prefix = $5, secret = $6,
			previous_secret = $7, previous_secret_until = $8, disabled_at = $9, disabled_reason = $10, updated_at = $11
			WHERE workspace_id = $1 AND id = $2`, workspaceID, id, w.URL, events, w.SecretPrefix, w.Secret,
			w.PreviousSecret, timeArg(w.PreviousSecretUntil), feedbackTimeArg(w.DisabledAt), w.DisabledReason, w.UpdatedAt.Time)
		if err != nil || c.Events == nil {
			return err
		}
		_, err = tx.Exec(ctx, `DELETE FROM webhook_events WHERE workspace_id = $1 AND webhook_id = $2`, workspaceID, id)
		if err != nil {
			return err
		}
		return insertWebhookEvents(ctx, tx, workspaceID, id, w.Events)
	})
	return nilOnError(w, err)
}

// changeWebhook applies c to w at now, as UpdateWebhook describes.
func changeWebhook(w *server.Webhook, c server.WebhookChange, now time.Time) {
	if c.URL != nil {
		w.URL = *c.URL
	}
	if c.Events != nil {
		w.Events = append([]string{}, *c.Events...)
	}
	if w.PreviousSecretUntil != nil && !w.PreviousSecretUntil.After(now) {
		w.PreviousSecret, w.PreviousSecretUntil = nil, nil
	}
	if c.Secret != nil {
		until := now.Add(feedback.SecretOverlap)
		w.PreviousSecret, w.PreviousSecretUntil = w.Secret, &until
		w.Secret, w.SecretPrefix = c.Secret, c.SecretPrefix
	}
	switch {
	case c.Enabled == nil:
	case *c.Enabled:
		w.DisabledAt, w.DisabledReason = nil, ""
	case w.DisabledAt == nil:
		at := feedback.NewTime(now)
		w.DisabledAt, w.DisabledReason = &at, apiDisabled
	}
	w.UpdatedAt = feedback.NewTime(now)
}

// DeleteWebhook removes a subscription with its event names and all its
// deliveries and their attempts, whatever their state (the foreign keys
// cascade). Returns feedback.ENotFound.
func (s *Store) DeleteWebhook(ctx context.Context, workspaceID, id string) (err error) {
	defer wrap(&err, "DeleteWebhook(%s, %s)", workspaceID, id)
	if !canonical(&workspaceID, &id) {
		return notFound("webhook", id)
	}
	return s.db.InTx(ctx, func(tx Conn) error {
		n, err := tx.Exec(ctx, `DELETE FROM webhooks WHERE workspace_id = $1 AND id = $2`, workspaceID, id)
		if err == nil && n == 0 {
			return notFound("webhook", id)
		}
		return err
	})
}

// findWebhook reads a subscription; lock is "" or the dialect's ForUpdate.
func findWebhook(ctx context.Context, c Conn, workspaceID, id, lock string) (*server.Webhook, error) {
	w, err := one(scanWebhook(c.QueryRow(ctx, `SELECT `+webhookColumns+` FROM webhooks
		WHERE workspace_id = $1 AND id = $2`+lock, workspaceID, id)))
	return w, orNotFound(err, "webhook", id)
}

func scanWebhook(r Row) (server.Webhook, error) {
	var w server.Webhook
	err := r.Scan(&w.WorkspaceID, &w.ID, &w.URL, asJSON(&w.Events), &w.SecretPrefix, &w.Secret, at(&w.CreatedAt),
		at(&w.UpdatedAt), atOpt(&w.DisabledAt), &w.DisabledReason, &w.PreviousSecret, atOptTime(&w.PreviousSecretUntil))
	return w, err
}

// insertWebhookEvents writes the rows of a subscription's event names,
// which the fan-out joins: "*" alone when the names hold it, so that an
// event matches at most one row of a subscription, and each name once.
func insertWebhookEvents(ctx context.Context, tx Conn, workspaceID, id string, events []string) error {
	names := slices.Compact(slices.Sorted(slices.Values(events)))
	if slices.Contains(names, feedback.AllEvents) {
		names = []string{feedback.AllEvents}
	}
	if len(names) == 0 {
		return nil
	}
	args := []any{workspaceID, id}
	values := make([]string, len(names))
	for i, name := range names {
		args = append(args, name)
		values[i] = fmt.Sprintf("($1, $2, $%d)", len(args))
	}
	_, err := tx.Exec(ctx, `INSERT INTO webhook_events (workspace_id, webhook_id, event) VALUES `+
		strings.Join(values, ", "), args...)
	return err
}
