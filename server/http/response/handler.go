package response

import (
	"errors"
	"log/slog"
	"net/http"

	"github.com/feedbackhq/feedback/server/http/request"
)

// HandlerFunc is the shape of every handler: it writes a response or
// returns an error, which [Errors] answers.
type HandlerFunc func(w http.ResponseWriter, r *http.Request) error

// PageFunc answers err as an HTML page and returns the status it
// answered.
type PageFunc func(w http.ResponseWriter, r *http.Request, err error) int

// Errors answers the errors that handlers return, and logs those that
// are the service's own failures (a status of 500 or more).
type Errors struct {
	Log *slog.Logger
	// Page answers errors as pages, for people; nil answers problems,
	// for the API and the devices.
	Page PageFunc
}

// Handle adapts h to an [http.HandlerFunc]: e answers the error h
// returns.
func (e *Errors) Handle(h HandlerFunc) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		if err := h(w, r); err != nil {
			e.Write(w, r, err)
		}
	}
}

// Write answers err, as a problem or as a page, and logs it when it is
// the service's own failure.
func (e *Errors) Write(w http.ResponseWriter, r *http.Request, err error) {
	if r.Context().Err() != nil && errors.Is(err, r.Context().Err()) {
		// The client went away or timed out; nobody reads the answer and
		// nothing is wrong with the service.
		e.Log.DebugContext(r.Context(), "request abandoned", "err", err, "path", r.URL.Path)
		e.answer(w, r, err, true)
		return
	}
	if status := e.answer(w, r, err, false); status >= http.StatusInternalServerError {
		e.Log.ErrorContext(r.Context(), "request failed", "err", err,
			"method", r.Method, "path", r.URL.Path, "request_id", request.ID(r.Context()))
	}
}

// answer writes the problem or the page of err and returns its status;
// an abandoned request's problem is a 499.
func (e *Errors) answer(w http.ResponseWriter, r *http.Request, err error, abandoned bool) int {
	if e.Page != nil {
		return e.Page(w, r, err)
	}
	p := Problem(r, err)
	if abandoned {
		p.Status, p.Code, p.Title = 499, "client_closed_request", "Client closed request"
	}
	WriteProblem(w, p)
	return p.Status
}
