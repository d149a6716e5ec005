package request

import (
	"context"
)

// Principal is who a request acts for: a workspace, through a token or
// a signed-in user's session (with the user's role there).
type Principal struct {
	WorkspaceID string
	TokenID     string
	// Session requests: the user, the session and the role in the
	// workspace ("" for requests that name no workspace).
	UserID    string
	SessionID string
	Role      string
	// Actor names who acts in the audit log.
	Actor string
}

var principalKey = &contextKey{"principal"}

// WithPrincipal returns ctx carrying p.
func WithPrincipal(ctx context.Context, p *Principal) context.Context {
	return context.WithValue(ctx, principalKey, p)
}

// PrincipalOf returns the request's principal, nil before authentication.
func PrincipalOf(ctx context.Context) *Principal {
	p, _ := ctx.Value(principalKey).(*Principal)
	return p
}

// WorkspaceID returns the workspace the request is authenticated for.
func WorkspaceID(ctx context.Context) string {
	if p := PrincipalOf(ctx); p != nil {
		return p.WorkspaceID
	}
	return ""
}
