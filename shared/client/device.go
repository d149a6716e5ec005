package client

import (
	"context"
	"encoding/json"
	"net/url"

	"github.com/feedbackhq/feedback/shared/feedback"
)

// Submit posts a visitor submission to the poster with code, as the app's
// offline queue does. It returns the status (201 new, 200 repeated) and
// the stored record.
func (c *Client) Submit(ctx context.Context, code string, s feedback.Submission) (int, json.RawMessage, error) {
	var out json.RawMessage
	r, err := c.Do(ctx, "POST", "/q/"+url.PathEscape(code), s, &out)
	if r == nil {
		return 0, nil, err
	}
	return r.Status, out, err
}

// Pair consumes a pairing code; the returned credential authenticates the
// kiosk from then on (set it as the Token of a client).
func (c *Client) Pair(ctx context.Context, code string) (*feedback.Pairing, error) {
	var out feedback.Pairing
	_, err := c.Do(ctx, "POST", "/kiosk/pair", feedback.PairRequest{Code: code}, &out)
	return &out, err
}

// Sync sends up to 500 queued kiosk submissions; each gets its own result.
func (c *Client) Sync(ctx context.Context, subs []feedback.Submission) (*feedback.SyncResponse, error) {
	var out feedback.SyncResponse
	_, err := c.Do(ctx, "POST", "/kiosk/sync", feedback.SyncRequest{Submissions: subs}, &out)
	return &out, err
}

// Heartbeat tells the service the kiosk is alive.
func (c *Client) Heartbeat(ctx context.Context, hb feedback.Heartbeat) error {
	_, err := c.Do(ctx, "POST", "/kiosk/heartbeat", hb, nil)
	return err
}

// KioskConfig fetches the kiosk's settings and the form it shows.
func (c *Client) KioskConfig(ctx context.Context) (*feedback.KioskConfig, error) {
	var out feedback.KioskConfig
	_, err := c.Do(ctx, "GET", "/kiosk/config", nil, &out)
	return &out, err
}
