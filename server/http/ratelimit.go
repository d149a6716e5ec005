package http

import (
	"net/http"
	"strconv"
	"time"

	"github.com/feedbackhq/feedback/server"
	"github.com/feedbackhq/feedback/shared/feedback"
)

// limitWindow is the length of every rate-limit window.
const limitWindow = time.Minute

// limitWorkspace counts an authenticated API request against its
// workspace's budget, shared by every instance on PostgreSQL.
func (s *Server) limitWorkspace(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		q, err := s.store.Limiter().Take(r.Context(), rateKey(r), s.cfg.RateLimit, limitWindow)
		if err == nil {
			err = s.setQuota(w, q)
		}
		if err != nil {
			s.writeError(w, r, err)
			return
		}
		next.ServeHTTP(w, r)
	})
}

// anonymousAPI counts an unauthenticated API request against the client
// IP's budget and reports whether it may proceed.
func (s *Server) anonymousAPI(w http.ResponseWriter, r *http.Request) bool {
	return s.takeLocal(w, r, "api-ip:"+s.clientIP(r), s.limits.APIPerIP)
}

// takeLocal counts against an in-process budget and reports whether the
// request may proceed; otherwise it has answered the problem.
func (s *Server) takeLocal(w http.ResponseWriter, r *http.Request, key string, limit int) bool {
	if err := s.localQuota(w, r, key, limit); err != nil {
		s.writeError(w, r, err)
		return false
	}
	return true
}

// localQuota counts against an in-process budget, sets the rate-limit
// headers and returns a rate_limited error when the budget is spent, for
// the caller to answer as a problem or as a page.
func (s *Server) localQuota(w http.ResponseWriter, r *http.Request, key string, limit int) error {
	q, err := s.local.Take(r.Context(), key, limit, limitWindow)
	if err != nil {
		return err
	}
	return s.setQuota(w, q)
}

// setQuota sets the rate-limit headers of q and, when q is exhausted,
// Retry-After, returning a rate_limited error.
func (s *Server) setQuota(w http.ResponseWriter, q server.Quota) error {
	h := w.Header()
	h.Set("X-RateLimit-Limit", strconv.Itoa(q.Limit))
	h.Set("X-RateLimit-Remaining", strconv.Itoa(q.Remaining))
	h.Set("X-RateLimit-Reset", strconv.FormatInt(q.Reset.Unix(), 10))
	if q.Allowed {
		return nil
	}
	wait := max(int(q.Reset.Sub(s.now()).Seconds()+0.999), 1)
	h.Set("Retry-After", strconv.Itoa(wait))
	return feedback.Errorf(feedback.ERateLimited,
		"The rate limit of %d requests per minute is exhausted; retry after %d seconds.", q.Limit, wait)
}

// rateKey names the budget of an authenticated API request: its
// workspace's, or the user's for requests that name no workspace.
func rateKey(r *http.Request) string {
	p := principalOf(r.Context())
	if p != nil && p.WorkspaceID == "" {
		return "user:" + p.UserID
	}
	return "ws:" + workspaceID(r.Context())
}
