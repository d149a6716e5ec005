package offline

import (
	"strconv"
	"strings"
	"time"
)

// Retry timing.
const (
	// BackoffBase is the ceiling of the first backoff; each consecutive
	// failed pass doubles it, up to BackoffCap.
	BackoffBase = 2 * time.Second
	// BackoffCap is the longest backoff.
	BackoffCap = 5 * time.Minute
	// MinBackoff is the shortest backoff, so that full jitter never
	// retries at once.
	MinBackoff = time.Second
	// PollInterval is how often [Queue.Run] tries when no retry is
	// scheduled, for items another tab queued or a pass that was skipped.
	PollInterval = 30 * time.Second
	// MaxRateLimitWait bounds the wait a 429 asks for, so that a wrong
	// clock or header cannot stall the queue for long.
	MaxRateLimitWait = time.Hour
)

// Backoff returns the delay before the next pass after the n-th
// consecutive failed pass (n >= 1), with full jitter: r (in [0, 1)) times
// min(BackoffCap, BackoffBase·2ⁿ⁻¹), but at least MinBackoff.
func Backoff(n int, r float64) time.Duration {
	ceiling := BackoffCap
	if n < 1 {
		n = 1
	}
	if n <= 20 {
		ceiling = min(BackoffCap, BackoffBase<<(n-1))
	}
	return max(MinBackoff, time.Duration(r*float64(ceiling)))
}

// httpTimeFormat is the format of an HTTP date (net/http.TimeFormat,
// which app/ must not import).
const httpTimeFormat = "Mon, 02 Jan 2006 15:04:05 GMT"

// ResetAt returns when a rate limit ends, from the Retry-After header
// (seconds or an HTTP date) and the X-RateLimit-Reset header (Unix
// seconds) of a response received at now, or zero if neither says. The
// relative Retry-After wins because it does not depend on the device's
// clock agreeing with the server's.
func ResetAt(now time.Time, retryAfter, rateLimitReset string) time.Time {
	retryAfter = strings.TrimSpace(retryAfter)
	if s, err := strconv.ParseInt(retryAfter, 10, 64); err == nil && s >= 0 && s < 1<<31 {
		return now.Add(time.Duration(s) * time.Second)
	}
	if t, err := time.Parse(httpTimeFormat, retryAfter); err == nil {
		return t
	}
	if s, err := strconv.ParseInt(strings.TrimSpace(rateLimitReset), 10, 64); err == nil && s > 0 {
		return time.Unix(s, 0)
	}
	return time.Time{}
}
