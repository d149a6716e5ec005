package api

import (
	"net/http"
	"strings"
	"time"

	"github.com/feedbackhq/feedback/server"
	"github.com/feedbackhq/feedback/server/auth"
	"github.com/feedbackhq/feedback/server/http/request"
	"github.com/feedbackhq/feedback/server/secret"
	"github.com/feedbackhq/feedback/shared/feedback"
)

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
		p := &request.Principal{WorkspaceID: tok.WorkspaceID, TokenID: tok.ID, Actor: "token:" + tok.Name}
		next.ServeHTTP(w, r.WithContext(request.WithPrincipal(r.Context(), p)))
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
	if feedback.ErrorCode(err) == feedback.ENotFound {
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

// refuse answers a request whose credentials or permissions failed
// (see [ratelimit.Anonymous.Refuse]).
func (s *Server) refuse(w http.ResponseWriter, r *http.Request, err error) {
	s.errs.Write(w, r, s.anon.Refuse(w, r, err))
}
