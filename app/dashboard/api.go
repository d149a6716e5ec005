package dashboard

import (
	"context"
	"errors"
	"strconv"

	"github.com/feedbackhq/feedback/shared/client"
	"github.com/feedbackhq/feedback/shared/feedback"
)

// api is the service's API as the signed-in user: window.fetch with the
// session cookies (same origin) in the browser. Call its methods from a
// goroutine (ctx.Async), never inside an event handler's synchronous
// part (see client.Fetch).
var api = client.New("", "")

// apiError is a failed request, with a message meant for the person
// using the dashboard.
type apiError struct {
	Status  int // the HTTP status, 0 when the service was not reached
	Message string
}

func (e *apiError) Error() string { return e.Message }

// errUnreachable is a request that got no answer.
var errUnreachable = &apiError{Message: "The service cannot be reached. Check your connection, then try again."}

// explain turns the client's error into an *apiError: the problem's
// detail, which the server writes for people, or a sentence for its
// status. The request id, when there is one, helps support find it.
func explain(err error) error {
	var p *feedback.Problem
	switch {
	case err == nil:
		return nil
	case !errors.As(err, &p):
		if errors.Is(err, client.ErrDecode) {
			return &apiError{Message: "The service sent an answer the dashboard cannot read. Reload the page, then try again."}
		}
		return errUnreachable
	}
	e := &apiError{Status: p.Status, Message: statusText(p.Status)}
	if p.Type == client.BlankType { // not the service's problem: a proxy's page, say
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

// problemOf explains an error answer with status and body.
func problemOf(status int, body []byte) error {
	p, _ := client.DecodeProblem(status, body)
	return explain(p)
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

// The calls the pages make, each explained for people.

func getMe(ctx context.Context) (*feedback.Me, error) {
	me, err := api.Me(ctx)
	return me, explain(err)
}

func getSessions(ctx context.Context) ([]feedback.Session, error) {
	page, err := api.Sessions(ctx)
	return page.Data, explain(err)
}

func revokeSession(ctx context.Context, id string) error {
	return explain(api.RevokeSession(ctx, id))
}
