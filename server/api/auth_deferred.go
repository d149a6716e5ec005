package api

import (
	"bufio"
	"net"
	"net/http"
	"strings"

	"github.com/feedbackhq/feedback/server"
	"github.com/feedbackhq/feedback/server/http/ratelimit"
	"github.com/feedbackhq/feedback/server/http/request"
	"github.com/feedbackhq/feedback/server/secret"
	"github.com/feedbackhq/feedback/shared/feedback"
)

// A read request of a token this process has read before, whose
// workspace's lease allows it without a round trip, puts off the token's
// read: the store sends it with the request's first query, in the same
// round trip (a list's first page is then one round trip in all), and
// the answer waits for it. Whatever the handler does, nothing of its
// answer leaves before the token is read and found live: a handler that
// did not read it through the store has it read on its first byte. The
// request counts against the workspace's budget as it would have; a
// revoked or unknown token gets the same refusal, and the request back.
// Only GET requests put it off, and neither exports nor the live stream,
// which stream as they read.

// deferrable reports whether r may put off its token's read.
func deferrable(r *http.Request) bool {
	return r.Method == http.MethodGet && !strings.HasSuffix(r.URL.Path, "/export") &&
		!strings.HasSuffix(r.URL.Path, "/live") && r.Header.Get("Upgrade") == ""
}

// deferToken serves r with its token's read put off, when it can, and
// reports whether it did.
func (s *Server) deferToken(w http.ResponseWriter, r *http.Request, next http.Handler) bool {
	tl, ok := s.store.(server.TokenLimiter)
	if !ok || !deferrable(r) {
		return false
	}
	value, _ := request.Bearer(r, secret.APITokenPrefix)
	if value == "" {
		return false
	}
	hash := secret.Hash(value)
	known, quota, ok := tl.TakeKnownToken(hash, workspaceKey, s.cfg.RateLimit, ratelimit.Window)
	if !ok {
		return false
	}
	check := &server.TokenCheck{Hash: hash}
	g := &tokenGuard{ResponseWriter: w, s: s, r: r, check: check, known: known, quota: quota,
		header: w.Header().Clone()}
	p := &request.Principal{WorkspaceID: known.WorkspaceID, TokenID: known.ID, Actor: "token:" + known.Name}
	g.r = r.WithContext(server.WithTokenCheck(request.WithPrincipal(r.Context(), p), check))
	if err := ratelimit.New(s.store.Limiter(), s.now).Answer(w, quota); err != nil {
		s.errs.Write(g, g.r, err)
		return true
	}
	next.ServeHTTP(g, g.r)
	g.decide() // a handler that wrote nothing still answers only a live token
	return true
}

// tokenGuard holds back a request's answer until its token was read and
// found live, and answers the refusal instead otherwise.
type tokenGuard struct {
	http.ResponseWriter
	s      *Server
	r      *http.Request
	check  *server.TokenCheck
	known  *server.Token
	quota  server.Quota
	header http.Header // the answer's header before the handler ran

	decided, refused bool
}

// decide reads the token, unless the store did, once; on a refusal it
// answers it and reports false.
func (g *tokenGuard) decide() bool {
	if g.decided {
		return !g.refused
	}
	g.decided = true
	ctx := g.r.Context()
	if !g.check.Settled() {
		g.check.Settle(g.s.store.TokenByHash(ctx, g.check.Hash))
	}
	tok, err := g.check.Result()
	switch {
	case feedback.ErrorCode(err) == feedback.ENotFound:
		err = feedback.Errorf(feedback.EInvalidToken, "The API token is not valid.")
	case err == nil && (tok.RevokedAt != nil || tok.WorkspaceID != g.known.WorkspaceID):
		err = feedback.Errorf(feedback.ETokenRevoked, "The API token was revoked.")
	}
	if err != nil {
		g.refuse(err)
		return false
	}
	g.s.touch(g.r, tok)
	return true
}

// refuse answers err in place of the handler's answer, with the header
// as it was before the handler, and gives the request back.
func (g *tokenGuard) refuse(err error) {
	g.refused = true
	if g.quota.Allowed {
		g.s.store.(server.TokenLimiter).RefundToken(g.known, workspaceKey, ratelimit.Window)
	}
	h := g.ResponseWriter.Header()
	clear(h)
	for k, v := range g.header {
		h[k] = v
	}
	g.s.refuse(g.ResponseWriter, g.r, err)
}

// WriteHeader sends the handler's status once the token is found live.
func (g *tokenGuard) WriteHeader(code int) {
	if g.decide() {
		g.ResponseWriter.WriteHeader(code)
	}
}

// Write sends the handler's bytes once the token is found live, and
// drops them after a refusal.
func (g *tokenGuard) Write(p []byte) (int, error) {
	if !g.decide() {
		return len(p), nil
	}
	return g.ResponseWriter.Write(p)
}

// Flush flushes once the token is found live.
func (g *tokenGuard) Flush() {
	if g.decide() {
		_ = http.NewResponseController(g.ResponseWriter).Flush()
	}
}

// Unwrap returns the ResponseWriter it wraps (for http.ResponseController).
func (g *tokenGuard) Unwrap() http.ResponseWriter { return g.ResponseWriter }

// Hijack hands over the connection only once the token is found live.
func (g *tokenGuard) Hijack() (net.Conn, *bufio.ReadWriter, error) {
	if !g.decide() {
		return nil, nil, http.ErrNotSupported
	}
	return http.NewResponseController(g.ResponseWriter).Hijack()
}
