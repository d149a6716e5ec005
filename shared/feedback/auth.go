package feedback

// Roles of a user in a workspace. A platform owner holds RoleOwner in
// every workspace of the installation.
const (
	RoleOwner  = "platform:owner" // everything, and Global Settings (API tokens, members)
	RoleAdmin  = "admin"          // manages locations, posters, forms and webhooks
	RoleViewer = "viewer"         // reads
)

// Session is one signed-in browser of the current user, as the Active
// sessions page lists it.
type Session struct {
	ID         string `json:"id"`
	UserAgent  string `json:"user_agent"`
	IP         string `json:"ip"`
	CreatedAt  Time   `json:"created_at"`
	LastSeenAt Time   `json:"last_seen_at"`
	// ExpiresAt is when the session ends unless it is revoked first: the
	// end of its refresh token's 30 days.
	ExpiresAt Time `json:"expires_at"`
	// Current marks the session of the request.
	Current bool `json:"current"`
}

// Me is the signed-in user with the workspaces they can open.
type Me struct {
	ID            string       `json:"id"`
	Email         string       `json:"email"`
	Name          string       `json:"name"`
	PlatformOwner bool         `json:"platform_owner"`
	Workspaces    []Membership `json:"workspaces"`
}

// Membership is a workspace a user can open, with their role in it.
type Membership struct {
	WorkspaceID string `json:"workspace_id"`
	Slug        string `json:"slug"`
	Name        string `json:"name"`
	Role        string `json:"role"`
}

// Audit actions.
const (
	AuditSignIn         = "session.signed_in"
	AuditSignOut        = "session.signed_out"
	AuditSessionRevoked = "session.revoked"
	AuditRefreshReused  = "session.refresh_reused"
	AuditTokenCreated   = "token.created"
	AuditTokenRevoked   = "token.revoked"
	AuditMemberRole     = "member.role_changed"
	AuditMemberInvited  = "member.invited"
	AuditMemberJoined   = "member.joined"
	AuditMemberRemoved  = "member.removed"
	AuditWebhookCreated = "webhook.created"
	AuditWebhookDeleted = "webhook.deleted"
	AuditAlertRuleAdded = "alert_rule.created"
	AuditAlertRuleSaved = "alert_rule.updated"
	AuditAlertRuleGone  = "alert_rule.deleted"
	AuditPasswordChange = "account.password_changed"
	AuditTOTPEnrolled   = "account.totp_enrolled"
	AuditTOTPRemoved    = "account.totp_removed"
)

// AuditEntry is one security event of the installation.
type AuditEntry struct {
	ID string `json:"id"`
	// WorkspaceID is the workspace the event concerns; null for events of
	// the installation (sign-in, sessions).
	WorkspaceID *string `json:"workspace_id"`
	// Actor is the user's email, "cli", or "token:" and the token's name.
	Actor   string            `json:"actor"`
	ActorID *string           `json:"actor_id"`
	Action  string            `json:"action"`
	Target  string            `json:"target"`
	IP      string            `json:"ip"`
	Details map[string]string `json:"details"`
	// CreatedAt is when it happened.
	CreatedAt Time `json:"created_at"`
}

// Member is a user's membership of a workspace, as Global Settings list
// it.
type Member struct {
	UserID    string `json:"user_id"`
	Email     string `json:"email"`
	Name      string `json:"name"`
	Role      string `json:"role"`
	CreatedAt Time   `json:"created_at"`
}

// Invite is an invitation link to join a workspace with a role. URL is
// shown once, at creation.
type Invite struct {
	ID        string `json:"id"`
	Role      string `json:"role"`
	URL       string `json:"url,omitempty"`
	ExpiresAt Time   `json:"expires_at"`
	CreatedAt Time   `json:"created_at"`
}

// MemberRole is the body of a role change or an invitation.
type MemberRole struct {
	Role string `json:"role"`
}

// Validate checks that the role is admin or viewer (platform owners
// are owners of every workspace, not members).
func (m MemberRole) Validate() error {
	if m.Role == RoleAdmin || m.Role == RoleViewer {
		return nil
	}
	return &Error{Code: EValidation, Message: "The role must be admin or viewer.",
		Params: []InvalidParam{{Name: "role", Reason: "must be admin or viewer"}}}
}
