package client

import (
	"context"
	"net/url"

	"github.com/feedbackhq/feedback/shared/feedback"
)

// Tokens lists the workspace's API tokens, revoked ones included (a
// platform owner's session only).
func (c *Client) Tokens(ctx context.Context) (*feedback.Page[feedback.APIToken], error) {
	return call[feedback.Page[feedback.APIToken]](ctx, c, "GET", "/tokens", nil)
}

// CreateToken creates an API token named name and returns it with its
// value, which no later request answers.
func (c *Client) CreateToken(ctx context.Context, name string) (*feedback.NewAPIToken, error) {
	return call[feedback.NewAPIToken](ctx, c, "POST", "/tokens", feedback.TokenInput{Name: name})
}

// RevokeToken revokes an API token from its next request on.
func (c *Client) RevokeToken(ctx context.Context, id string) error {
	_, err := c.Do(ctx, "DELETE", c.api("/tokens/"+url.PathEscape(id)), nil, nil)
	return err
}

// Webhooks lists webhook subscriptions.
func (c *Client) Webhooks(ctx context.Context, p feedback.ListParams) (*feedback.Page[feedback.WebhookSubscription], error) {
	return list[feedback.WebhookSubscription](ctx, c, "/webhooks", p)
}

// UpdateWebhook changes a subscription: its url, events, secret (a
// rotation) or whether it is enabled.
func (c *Client) UpdateWebhook(ctx context.Context, id string, in feedback.WebhookUpdate) (*feedback.WebhookSubscription, error) {
	return call[feedback.WebhookSubscription](ctx, c, "PATCH", "/webhooks/"+url.PathEscape(id), in)
}

// DeleteWebhook deletes a subscription.
func (c *Client) DeleteWebhook(ctx context.Context, id string) error {
	_, err := c.Do(ctx, "DELETE", c.api("/webhooks/"+url.PathEscape(id)), nil, nil)
	return err
}

// TestWebhook queues a webhook.test event to the subscription only and
// returns its delivery, pending.
func (c *Client) TestWebhook(ctx context.Context, id string) (*feedback.WebhookDelivery, error) {
	return call[feedback.WebhookDelivery](ctx, c, "POST", "/webhooks/"+url.PathEscape(id)+"/test", nil)
}

// Deliveries lists a subscription's deliveries with every attempt.
func (c *Client) Deliveries(ctx context.Context, id string, p feedback.ListParams) (*feedback.Page[feedback.WebhookDelivery], error) {
	return list[feedback.WebhookDelivery](ctx, c, "/webhooks/"+url.PathEscape(id)+"/deliveries", p)
}

// Redeliver sends a delivery again, with the same webhook-id.
func (c *Client) Redeliver(ctx context.Context, id, deliveryID string) (*feedback.WebhookDelivery, error) {
	return call[feedback.WebhookDelivery](ctx, c, "POST",
		"/webhooks/"+url.PathEscape(id)+"/deliveries/"+url.PathEscape(deliveryID)+"/redeliver", nil)
}
