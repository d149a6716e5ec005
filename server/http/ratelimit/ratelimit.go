// Package ratelimit counts requests against per-minute budgets and
// answers with the rate-limit headers (X-RateLimit-Limit, -Remaining,
// -Reset, and Retry-After once a budget is spent).
//
// A [Limiter] counts in the store's limiter, a budget every instance
// shares on PostgreSQL (the API's per workspace), or in process
// (anonymous traffic: it protects the service, not a shared quota).
package ratelimit

import (
	"net/http"
	"strconv"
	"time"

	"github.com/feedbackhq/feedback/server"
	"github.com/feedbackhq/feedback/server/http/request"
	"github.com/feedbackhq/feedback/server/http/response"
	"github.com/feedbackhq/feedback/shared/feedback"
)

// Window is the length of every rate-limit window.
const Window = time.Minute

// Limiter counts requests against budgets of a number per [Window].
type Limiter struct {
	counter server.Limiter
	now     func() time.Time
}

// New returns a Limiter that counts in counter on the clock now.
func New(counter server.Limiter, now func() time.Time) *Limiter {
	return &Limiter{counter: counter, now: now}
}

// Take counts a request against the budget of key, limit per minute, and
// sets the rate-limit headers; it returns a rate_limited error, with
// Retry-After set, when the budget is spent, for the caller to answer as
// a problem or as a page.
func (l *Limiter) Take(w http.ResponseWriter, r *http.Request, key string, limit int) error {
	q, err := l.counter.Take(r.Context(), key, limit, Window)
	if err != nil {
		return err
	}
	return l.Answer(w, q)
}

// Answer sets the rate-limit headers of q, a request's count that the
// store took already (see [server.TokenLimiter]), and returns the error
// of [Limiter.Take] when its budget is spent.
func (l *Limiter) Answer(w http.ResponseWriter, q server.Quota) error {
	h := w.Header()
	h.Set("X-RateLimit-Limit", strconv.Itoa(q.Limit))
	h.Set("X-RateLimit-Remaining", strconv.Itoa(q.Remaining))
	h.Set("X-RateLimit-Reset", strconv.FormatInt(q.Reset.Unix(), 10))
	if q.Allowed {
		return nil
	}
	wait := max(int(q.Reset.Sub(l.now()).Seconds()+0.999), 1)
	h.Set("Retry-After", strconv.Itoa(wait))
	return feedback.Errorf(feedback.ERateLimited,
		"The rate limit of %d requests per minute is exhausted; retry after %d seconds.", q.Limit, wait)
}

// Anonymous is the budget of API and device requests per client IP that
// no credential vouches for: the public OpenAPI document, and every
// refused credential, so that guessing is slow.
type Anonymous struct {
	Limiter *Limiter // in process
	PerIP   int
}

// Take counts r against its client IP's budget.
func (a Anonymous) Take(w http.ResponseWriter, r *http.Request) error {
	return a.Limiter.Take(w, r, "api-ip:"+request.ClientIP(r), a.PerIP)
}

// Refuse prepares the answer to a request whose credentials or
// permissions failed with err: it is counted against the client IP's
// budget, so the answer carries the rate-limit headers, and a 401 gets
// its RFC 6750 challenge. It returns the error to answer: err, or the
// rate limit's. A store failure (a status of 500 or more) is returned
// uncounted.
func (a Anonymous) Refuse(w http.ResponseWriter, r *http.Request, err error) error {
	status := response.Status(err)
	if status >= http.StatusInternalServerError {
		return err
	}
	if limited := a.Take(w, r); limited != nil {
		return limited
	}
	if status == http.StatusUnauthorized {
		w.Header().Set("WWW-Authenticate", wwwAuthenticate(err))
	}
	return err
}

// wwwAuthenticate returns the RFC 6750 challenge for an auth failure.
func wwwAuthenticate(err error) string {
	c := `Bearer realm="feedback"`
	if feedback.ErrorCode(err) == feedback.EUnauthenticated {
		return c
	}
	return c + `, error="invalid_token", error_description="` + feedback.ErrorMessage(err) + `"`
}
