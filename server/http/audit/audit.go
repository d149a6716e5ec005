// Package audit appends the security events of HTTP requests (sign-ins,
// tokens, members, webhooks) to the audit log, on behalf of the
// request's principal.
package audit

import (
	"log/slog"
	"net/http"

	"github.com/feedbackhq/feedback/server"
	"github.com/feedbackhq/feedback/server/http/request"
	"github.com/feedbackhq/feedback/shared/feedback"
)

// Log appends events to the audit log of Store.
type Log struct {
	Store server.AuthStore
	Log   *slog.Logger
}

// Record appends a security event for the request's actor (its
// [request.Principal], or "anonymous") in the workspace ws, nil for the
// user's own events. A failure is logged, not answered, as the action
// itself has happened.
func (l *Log) Record(r *http.Request, ws *string, action, target string, details map[string]string) {
	e := &feedback.AuditEntry{WorkspaceID: ws, Action: action, Target: target, IP: request.ClientIP(r),
		Details: details, Actor: "anonymous"}
	if p := request.PrincipalOf(r.Context()); p != nil {
		e.Actor = p.Actor
		if p.UserID != "" {
			e.ActorID = &p.UserID
		}
	}
	if err := l.Store.AppendAudit(r.Context(), e); err != nil {
		l.Log.ErrorContext(r.Context(), "audit", "action", action, "err", err)
	}
}
