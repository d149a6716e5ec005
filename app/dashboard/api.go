package dashboard

import (
	"context"
	"encoding/json"
	"strconv"

	"github.com/feedbackhq/feedback/shared/feedback"
)

// apiError is a failed request, with a message meant for the person
// using the dashboard.
type apiError struct {
	Status  int // the HTTP status, 0 when the service was not reached
	Message string
}

func (e *apiError) Error() string { return e.Message }

// errUnreachable is a request that got no answer.
var errUnreachable = &apiError{Message: "The service cannot be reached. Check your connection, then try again."}

// call sends a request to the API (path is below /api/v1) and decodes a
// 2xx JSON answer into out, when out is not nil. A failure is an
// *apiError.
func call(ctx context.Context, method, path string, out any) error {
	status, body, err := send(ctx, method, "/api/v1"+path)
	if err != nil {
		return errUnreachable
	}
	if status < 200 || status > 299 {
		return problemOf(status, body)
	}
	if out == nil || len(body) == 0 {
		return nil
	}
	if json.Unmarshal(body, out) != nil {
		return &apiError{Status: status, Message: "The service sent an answer the dashboard cannot read. Reload the page, then try again."}
	}
	return nil
}

// problemOf turns an error answer into a readable error: the problem's
// detail, which the server writes for people, or a sentence for its
// status. The request id, when there is one, helps support find it.
func problemOf(status int, body []byte) *apiError {
	e := &apiError{Status: status, Message: statusText(status)}
	var p feedback.Problem
	if json.Unmarshal(body, &p) != nil {
		return e
	}
	if p.Detail != "" {
		e.Message = p.Detail
	}
	if p.RequestID != "" {
		e.Message += " (Request ID " + p.RequestID + ")"
	}
	return e
}

func statusText(status int) string {
	switch {
	case status == 401:
		return "Your session has ended. Sign in again."
	case status == 403:
		return "You are not allowed to do this."
	case status == 404:
		return "This no longer exists."
	case status == 429:
		return "Too many requests. Wait a moment, then try again."
	case status >= 500:
		return "The service had a problem (error " + strconv.Itoa(status) + "). Try again in a moment."
	}
	return "The request failed (error " + strconv.Itoa(status) + ")."
}

// hasStatus reports whether err is an answer with the HTTP status.
func hasStatus(err error, status int) bool {
	e, ok := err.(*apiError)
	return ok && e.Status == status
}

// isSignedOut reports whether err says there is no session: the user is
// signed out, or the session was revoked or has expired.
func isSignedOut(err error) bool { return hasStatus(err, 401) }
