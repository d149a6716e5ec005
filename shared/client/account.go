package client

import (
	"context"
	"net/url"

	"github.com/feedbackhq/feedback/shared/feedback"
)

// Me returns the signed-in user and their workspaces.
func (c *Client) Me(ctx context.Context) (*feedback.Me, error) {
	return call[feedback.Me](ctx, c, "GET", "/me", nil)
}

// Sessions lists the signed-in user's active sessions, newest first.
func (c *Client) Sessions(ctx context.Context) (*feedback.Page[feedback.Session], error) {
	return call[feedback.Page[feedback.Session]](ctx, c, "GET", "/sessions", nil)
}

// RevokeSession ends one of the user's sessions.
func (c *Client) RevokeSession(ctx context.Context, id string) error {
	_, err := c.Do(ctx, "DELETE", c.api("/sessions/"+url.PathEscape(id)), nil, nil)
	return err
}
