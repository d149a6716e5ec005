package http

import (
	"context"
	"net/http"
	"strings"
	"time"

	"github.com/feedbackhq/feedback/server"
	"github.com/feedbackhq/feedback/server/auth"
	"github.com/feedbackhq/feedback/server/secret"
	"github.com/feedbackhq/feedback/shared/feedback"
)

// principal is who a request acts for: a workspace, through a token or
// a signed-in user's session (with the user's role there).
type principal struct {
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

// principalOf returns the request's principal, nil before authentication.
func principalOf(ctx context.Context) *principal {
	p, _ := ctx.Value(principalKey).(*principal)
	return p
}

var principalKey = &contextKey{"principal"}

// workspaceID returns the workspace the request is authenticated for.
func workspaceID(ctx context.Context) string {
	p, _ := ctx.Value(principalKey).(*principal)
	if p == nil {
		return ""
	}
	return p.WorkspaceID
}

// touchEvery bounds how often last_used_at is written per token.
const touchEvery = time.Minute

// requireToken authenticates an API request by its Bearer token and puts
// the principal into the context. A failure consumes the client IP's
// anonymous budget, so guessing tokens is slow.
func (s *Server) requireToken(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("Authorization") == "" && s.sessions != nil && auth.HasCookies(r) {
			s.sessionAPI(next).ServeHTTP(w, r)
			return
		}
		tok, err := s.authenticate(r)
		if err != nil {
			s.refuse(w, r, err)
			return
		}
		if tok.LastUsedAt == nil || s.now().Sub(*tok.LastUsedAt) >= touchEvery {
			if err := s.store.TouchToken(r.Context(), tok.WorkspaceID, tok.ID, s.now()); err != nil {
				s.log.WarnContext(r.Context(), "touch token", "err", err)
			}
		}
		p := &principal{WorkspaceID: tok.WorkspaceID, TokenID: tok.ID, Actor: "token:" + tok.Name}
		next.ServeHTTP(w, r.WithContext(context.WithValue(r.Context(), principalKey, p)))
	})
}

// authenticate finds the live token of the request.
func (s *Server) authenticate(r *http.Request) (*server.Token, error) {
	h := r.Header.Get("Authorization")
	if h == "" {
		return nil, feedback.Errorf(feedback.EUnauthenticated,
			"This endpoint needs an API token (Authorization: Bearer <token>) or a dashboard session.")
	}
	scheme, value, _ := strings.Cut(h, " ")
	value = strings.TrimSpace(value)
	if !strings.EqualFold(scheme, "Bearer") || !secret.ValidToken(secret.APITokenPrefix, value) {
		return nil, feedback.Errorf(feedback.EInvalidToken,
			"The Authorization header must be Bearer followed by an API token (fbk_...).")
	}
	tok, err := s.store.TokenByHash(r.Context(), secret.Hash(value))
	if isCode(err, feedback.ENotFound) {
		return nil, feedback.Errorf(feedback.EInvalidToken, "The API token is not valid.")
	}
	if err != nil {
		return nil, err
	}
	if tok.RevokedAt != nil {
		return nil, feedback.Errorf(feedback.ETokenRevoked, "The API token was revoked.")
	}
	return tok, nil
}

// refuse answers a request whose credentials or permissions failed,
// counted against the client IP's anonymous budget (so that guessing is
// slow, and the answer carries the rate-limit headers), a 401 with its
// challenge; a store failure is a plain 500.
func (s *Server) refuse(w http.ResponseWriter, r *http.Request, err error) {
	status := statusOf(err)
	if status >= http.StatusInternalServerError {
		s.writeError(w, r, err)
		return
	}
	if s.anonymousAPI(w, r) {
		if status == http.StatusUnauthorized {
			w.Header().Set("WWW-Authenticate", wwwAuthenticate(err))
		}
		s.writeError(w, r, err)
	}
}

// wwwAuthenticate returns the RFC 6750 challenge for an auth failure.
func wwwAuthenticate(err error) string {
	c := `Bearer realm="feedback"`
	if feedback.ErrorCode(err) == feedback.EUnauthenticated {
		return c
	}
	return c + `, error="invalid_token", error_description="` + feedback.ErrorMessage(err) + `"`
}

// withPrincipal returns ctx carrying p.
func withPrincipal(ctx context.Context, p *principal) context.Context {
	return context.WithValue(ctx, principalKey, p)
}
