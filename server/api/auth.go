package api

import (
	"net/http"
	"time"

	"github.com/feedbackhq/feedback/server"
	"github.com/feedbackhq/feedback/server/auth"
	"github.com/feedbackhq/feedback/server/http/ratelimit"
	"github.com/feedbackhq/feedback/server/http/request"
	"github.com/feedbackhq/feedback/server/secret"
	"github.com/feedbackhq/feedback/shared/feedback"
)

// touchEvery bounds how often last_used_at is written per token.
const touchEvery = time.Minute

// requireToken authenticates an API request by its Bearer token and puts
// the principal into the context. A failure consumes the client IP's
// anonymous budget, so guessing tokens is slow. next rate-limits the
// request; counted is what next serves, for a store that counted the
// request against its workspace's budget with the token's lookup.
func (s *Server) requireToken(next, counted http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("Authorization") == "" && s.sessions != nil && auth.HasCookies(r) {
			s.sessionAPI(next).ServeHTTP(w, r)
			return
		}
		if s.deferToken(w, r, counted) {
			return
		}
		tok, quota, err := s.authenticate(r)
		if err != nil {
			s.refuse(w, r, err)
			return
		}
		s.touch(r, tok)
		p := &request.Principal{WorkspaceID: tok.WorkspaceID, TokenID: tok.ID, Actor: "token:" + tok.Name}
		r = r.WithContext(request.WithPrincipal(r.Context(), p))
		if quota == nil {
			next.ServeHTTP(w, r)
			return
		}
		if err := ratelimit.New(s.store.Limiter(), s.now).Answer(w, *quota); err != nil {
			s.errs.Write(w, r, err)
			return
		}
		counted.ServeHTTP(w, r)
	})
}

// touch records that tok is used, when its last use is older than
// touchEvery.
func (s *Server) touch(r *http.Request, tok *server.Token) {
	if tok.LastUsedAt == nil || s.now().Sub(*tok.LastUsedAt) >= touchEvery {
		if err := s.store.TouchToken(r.Context(), tok.WorkspaceID, tok.ID, s.now()); err != nil {
			s.log.WarnContext(r.Context(), "touch token", "err", err)
		}
	}
}

// authenticate finds the live token of the request and, when the store
// counted the request against its workspace's budget in the same round
// trip, the quota (nil otherwise).
func (s *Server) authenticate(r *http.Request) (*server.Token, *server.Quota, error) {
	value, given := request.Bearer(r, secret.APITokenPrefix)
	if !given {
		return nil, nil, feedback.Errorf(feedback.EUnauthenticated,
			"This endpoint needs an API token (Authorization: Bearer <token>) or a dashboard session.")
	}
	if value == "" {
		return nil, nil, feedback.Errorf(feedback.EInvalidToken,
			"The Authorization header must be Bearer followed by an API token (fbk_...).")
	}
	tok, quota, err := s.findToken(r, secret.Hash(value))
	if feedback.ErrorCode(err) == feedback.ENotFound {
		return nil, nil, feedback.Errorf(feedback.EInvalidToken, "The API token is not valid.")
	}
	if err != nil {
		return nil, nil, err
	}
	if tok.RevokedAt != nil {
		return nil, nil, feedback.Errorf(feedback.ETokenRevoked, "The API token was revoked.")
	}
	return tok, quota, nil
}

// findToken returns the token whose hash is hash and, from a store that
// is a [server.TokenLimiter], the request's quota of its workspace.
func (s *Server) findToken(r *http.Request, hash []byte) (*server.Token, *server.Quota, error) {
	tl, ok := s.store.(server.TokenLimiter)
	if !ok {
		tok, err := s.store.TokenByHash(r.Context(), hash)
		return tok, nil, err
	}
	tok, q, err := tl.TakeToken(r.Context(), hash, workspaceKey, s.cfg.RateLimit, ratelimit.Window)
	return tok, &q, err
}

// refuse answers a request whose credentials or permissions failed
// (see [ratelimit.Anonymous.Refuse]).
func (s *Server) refuse(w http.ResponseWriter, r *http.Request, err error) {
	s.errs.Write(w, r, s.anon.Refuse(w, r, err))
}
