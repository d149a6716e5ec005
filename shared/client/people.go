package client

import (
	"context"
	"net/url"

	"github.com/feedbackhq/feedback/shared/feedback"
)

// The calls of the dashboard's people and audit log pages.

// Members lists the workspace's members, on one page.
func (c *Client) Members(ctx context.Context) (*feedback.Page[feedback.Member], error) {
	return call[feedback.Page[feedback.Member]](ctx, c, "GET", "/members", nil)
}

// SetMemberRole gives the member (their user id) the role, admin or
// viewer.
func (c *Client) SetMemberRole(ctx context.Context, id, role string) error {
	_, err := c.Do(ctx, "PATCH", c.api("/members/"+url.PathEscape(id)), feedback.MemberRole{Role: role}, nil)
	return err
}

// RemoveMember removes the user id from the workspace.
func (c *Client) RemoveMember(ctx context.Context, id string) error {
	_, err := c.Do(ctx, "DELETE", c.api("/members/"+url.PathEscape(id)), nil, nil)
	return err
}

// CreateInvite makes an invitation link to the workspace with the role;
// its URL is answered this once.
func (c *Client) CreateInvite(ctx context.Context, role string) (*feedback.Invite, error) {
	return call[feedback.Invite](ctx, c, "POST", "/invites", feedback.MemberRole{Role: role})
}

// AuditLog lists a page of the installation's security events, newest
// first, filtered by p.From and p.To.
func (c *Client) AuditLog(ctx context.Context, p feedback.ListParams) (*feedback.Page[feedback.AuditEntry], error) {
	return list[feedback.AuditEntry](ctx, c, "/audit-log", p)
}
