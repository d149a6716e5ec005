package client

import (
	"context"
	"net/url"

	"github.com/feedbackhq/feedback/shared/feedback"
)

// Workspaces lists every workspace of the installation (a platform
// owner's session only).
func (c *Client) Workspaces(ctx context.Context) (*feedback.Page[feedback.Workspace], error) {
	return call[feedback.Page[feedback.Workspace]](ctx, c, "GET", "/workspaces", nil)
}

// CreateWorkspace creates a workspace; an empty slug is made from the
// name.
func (c *Client) CreateWorkspace(ctx context.Context, in feedback.WorkspaceInput) (*feedback.Workspace, error) {
	return call[feedback.Workspace](ctx, c, "POST", "/workspaces", in)
}

// Federations lists the identity federations, without client secrets.
func (c *Client) Federations(ctx context.Context) (*feedback.Page[feedback.Federation], error) {
	return call[feedback.Page[feedback.Federation]](ctx, c, "GET", "/federations", nil)
}

// AddFederation adds an identity federation and answers what to register
// at its provider.
func (c *Client) AddFederation(ctx context.Context, in feedback.FederationInput) (*feedback.Federation, error) {
	return call[feedback.Federation](ctx, c, "POST", "/federations", in)
}

// RemoveFederation removes an identity federation: its domains sign in
// through it no more.
func (c *Client) RemoveFederation(ctx context.Context, id string) error {
	_, err := c.Do(ctx, "DELETE", c.api("/federations/"+url.PathEscape(id)), nil, nil)
	return err
}
