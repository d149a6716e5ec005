package api

import (
	"net/http"
	"strings"
	"time"

	"github.com/feedbackhq/feedback/server"
	"github.com/feedbackhq/feedback/server/http/request"
	"github.com/feedbackhq/feedback/shared/feedback"
)

// WorkspaceHeader names the workspace of a session request (its id or
// slug); a user with a single workspace may leave it out.
const WorkspaceHeader = "Feedback-Workspace"

// seenEvery bounds how often a session's last_seen_at is written.
const seenEvery = time.Minute

// sessionAPI authenticates an API request by its dashboard session: the
// cross-origin check for unsafe methods, the session (renewed from the
// refresh cookie when the access cookie expired), the workspace and the
// user's role in it.
func (s *Server) sessionAPI(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		p, err := s.sessionPrincipal(w, r)
		if err != nil {
			s.refuse(w, r, err)
			return
		}
		next.ServeHTTP(w, r.WithContext(request.WithPrincipal(r.Context(), p)))
	})
}

// sessionPrincipal works out who a session request acts for.
func (s *Server) sessionPrincipal(w http.ResponseWriter, r *http.Request) (*request.Principal, error) {
	if err := s.cop.Check(r); err != nil {
		return nil, feedback.Errorf(feedback.EForbidden, "Cross-origin requests cannot use a dashboard session.")
	}
	ses, err := s.sessions.Authenticate(w, r)
	if err != nil {
		return nil, err
	}
	user, err := s.store.User(r.Context(), ses.UserID)
	if err != nil {
		return nil, err
	}
	if s.now().Sub(ses.LastSeenAt) >= seenEvery {
		if err := s.store.TouchSession(r.Context(), ses.ID, s.now(), request.ClientIP(r)); err != nil {
			s.log.WarnContext(r.Context(), "touch session", "err", err)
		}
	}
	p := &request.Principal{UserID: user.ID, SessionID: ses.ID, Actor: user.Email}
	if userLevel(r) {
		if user.PlatformOwner {
			p.Role = feedback.RoleOwner
		}
		return p, allowed(p.Role, r)
	}
	m, err := s.chooseWorkspace(r, user)
	if err != nil {
		return nil, err
	}
	p.WorkspaceID, p.Role = m.WorkspaceID, m.Role
	return p, allowed(p.Role, r)
}

// chooseWorkspace returns the membership the request names in
// WorkspaceHeader, or the user's only one.
func (s *Server) chooseWorkspace(r *http.Request, user *server.User) (*feedback.Membership, error) {
	ms, err := s.store.Memberships(r.Context(), user.ID)
	if err != nil {
		return nil, err
	}
	want := strings.TrimSpace(r.Header.Get(WorkspaceHeader))
	if want == "" && (apiPath(r) == "/live" || strings.HasSuffix(apiPath(r), "/export")) {
		// A browser cannot send the header with a WebSocket, nor with a
		// download link (which streams a large export to disk).
		want = strings.TrimSpace(r.URL.Query().Get("workspace"))
	}
	if want == "" && len(ms) == 1 {
		return &ms[0], nil
	}
	if want == "" {
		return nil, &feedback.Error{Code: feedback.EInvalidParameter,
			Message: "Name the workspace in the " + WorkspaceHeader + " header (its id or slug).",
			Params:  []feedback.InvalidParam{{Name: WorkspaceHeader, Reason: "required unless you are a member of exactly one workspace"}}}
	}
	for i, m := range ms {
		if m.WorkspaceID == strings.ToLower(want) || m.Slug == want {
			return &ms[i], nil
		}
	}
	return nil, feedback.Errorf(feedback.ENotFound, "You are not a member of a workspace %q.", want)
}

// userLevel reports whether the request is for the signed-in user's
// own resources, which belong to no workspace.
func userLevel(r *http.Request) bool {
	rest := apiPath(r)
	for _, p := range []string{"/me", "/sessions", "/audit-log", "/workspaces", "/federations", "/account"} {
		if rest == p || strings.HasPrefix(rest, p+"/") {
			return true
		}
	}
	return false
}

// apiPath returns the path after the API prefix.
func apiPath(r *http.Request) string {
	p := r.URL.Path
	if rest, ok := strings.CutPrefix(p, "/api/v1"); ok {
		return rest
	}
	rest, _ := strings.CutPrefix(p, "/api")
	return rest
}

// ownerOnly lists the API paths that only a platform owner may use.
var ownerOnly = []string{"/tokens", "/audit-log", "/members", "/invites", "/workspaces", "/federations"}

// allowed applies the role: a viewer reads; an admin manages everything
// but the owner-only paths.
func allowed(role string, r *http.Request) error {
	rest := apiPath(r)
	for _, p := range ownerOnly {
		if (rest == p || strings.HasPrefix(rest, p+"/")) && role != feedback.RoleOwner {
			return feedback.Errorf(feedback.EForbidden, "Only a platform owner may use %s.", p)
		}
	}
	if role == feedback.RoleViewer && r.Method != http.MethodGet && r.Method != http.MethodHead {
		return feedback.Errorf(feedback.EForbidden, "Viewers can read but not change anything.")
	}
	return nil
}

// sessionOnly refuses requests that are not made with a dashboard
// session: API tokens cannot manage sessions, tokens or members.
func (s *Server) sessionOnly(next http.Handler) http.Handler {
	return s.handle(func(w http.ResponseWriter, r *http.Request) error {
		if p := request.PrincipalOf(r.Context()); p == nil || p.SessionID == "" {
			return feedback.Errorf(feedback.EForbidden, "This endpoint needs a dashboard session; API tokens cannot use it.")
		}
		next.ServeHTTP(w, r)
		return nil
	})
}
