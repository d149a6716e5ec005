package webhook

import (
	"bytes"
	"context"
	"errors"
	"io"
	"net"
	"strconv"
	"strings"
	"time"

	"code.dny.dev/ssrf"
)

// SecretAAD binds a sealed signing secret to its subscription; the HTTP
// layer seals with it and the dispatcher opens with it.
func SecretAAD(workspaceID, webhookID string) []byte {
	return []byte("webhook-secret:" + workspaceID + ":" + webhookID)
}

func bytesReader(b []byte) io.Reader { return bytes.NewReader(b) }

// retryAfter reads a Retry-After header: seconds or an HTTP date.
func retryAfter(v string, now time.Time) time.Duration {
	if v == "" {
		return 0
	}
	if s, err := strconv.Atoi(strings.TrimSpace(v)); err == nil && s > 0 {
		return time.Duration(s) * time.Second
	}
	if t, err := time.Parse(time.RFC1123, v); err == nil && t.After(now) {
		return t.Sub(now)
	}
	return 0
}

// describe turns a transport error into a line for the delivery log.
func describe(err error) string {
	var ne net.Error
	switch {
	case errors.Is(err, context.DeadlineExceeded) || (errors.As(err, &ne) && ne.Timeout()):
		return "timed out: " + err.Error()
	}
	return err.Error()
}

// answer describes a non-2xx answer for the delivery log, with the start
// of its body.
func answer(status int, body []byte) string {
	s := "answered " + strconv.Itoa(status)
	if b := strings.TrimSpace(string(body)); b != "" {
		if len(b) > 200 {
			b = b[:200] + "…"
		}
		s += ": " + b
	}
	return s
}

// refusedError is an attempt that the destination policy stopped at
// connect time: permanent until the configuration or the subscription
// changes.
type refusedError struct{ err error }

func (e *refusedError) Error() string {
	return "the destination is not allowed by the server's policy: " + e.err.Error()
}

// transportError describes a failed request for the delivery log,
// telling a refusal of the destination policy from a passing failure.
func transportError(err error) error {
	for _, refusal := range []error{ssrf.ErrProhibitedIP, ssrf.ErrProhibitedNetwork, ssrf.ErrProhibitedPort, ssrf.ErrInvalidHostPort} {
		if errors.Is(err, refusal) {
			return &refusedError{err}
		}
	}
	return errors.New(describe(err))
}
