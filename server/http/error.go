package http

import (
	"encoding/json"
	"errors"
	"net/http"

	"github.com/feedbackhq/feedback/shared/feedback"
)

// problemKinds maps every error code to its HTTP status and title. It is
// the only place where codes meet statuses.
var problemKinds = map[string]struct {
	status int
	title  string
}{
	feedback.EInternal:             {http.StatusInternalServerError, "Internal error"},
	feedback.EUnavailable:          {http.StatusServiceUnavailable, "Service unavailable"},
	feedback.EUnauthenticated:      {http.StatusUnauthorized, "Authentication required"},
	feedback.EInvalidToken:         {http.StatusUnauthorized, "Invalid token"},
	feedback.ETokenRevoked:         {http.StatusUnauthorized, "Token revoked"},
	feedback.EForbidden:            {http.StatusForbidden, "Forbidden"},
	feedback.ENotFound:             {http.StatusNotFound, "Not found"},
	feedback.EMethodNotAllowed:     {http.StatusMethodNotAllowed, "Method not allowed"},
	feedback.EInvalidParameter:     {http.StatusBadRequest, "Invalid parameter"},
	feedback.EMalformedBody:        {http.StatusBadRequest, "Malformed body"},
	feedback.EValidation:           {http.StatusUnprocessableEntity, "Validation failed"},
	feedback.EIdempotencyConflict:  {http.StatusConflict, "Idempotency conflict"},
	feedback.EInvalidTransition:    {http.StatusConflict, "Invalid status transition"},
	feedback.EConflict:             {http.StatusConflict, "Conflict"},
	feedback.EFormNotActive:        {http.StatusConflict, "Form not active"},
	feedback.EPosterRevoked:        {http.StatusGone, "Poster revoked"},
	feedback.EPayloadTooLarge:      {http.StatusRequestEntityTooLarge, "Payload too large"},
	feedback.EUnsupportedMediaType: {http.StatusUnsupportedMediaType, "Unsupported media type"},
	feedback.ERateLimited:          {http.StatusTooManyRequests, "Rate limit exceeded"},
}

// statusOf returns the HTTP status for err's code.
func statusOf(err error) int {
	if k, ok := problemKinds[feedback.ErrorCode(err)]; ok {
		return k.status
	}
	return http.StatusInternalServerError
}

// problemOf builds the problem body for err.
func problemOf(r *http.Request, err error) *feedback.Problem {
	code := feedback.ErrorCode(err)
	k, ok := problemKinds[code]
	if !ok {
		code, k = feedback.EInternal, problemKinds[feedback.EInternal]
	}
	params := feedback.ErrorParams(err)
	if params == nil {
		params = []feedback.InvalidParam{}
	}
	return &feedback.Problem{
		Type: feedback.ProblemTypePrefix + code, Title: k.title, Status: k.status,
		Detail: feedback.ErrorMessage(err), Code: code, RequestID: requestID(r.Context()),
		InvalidParams: params,
	}
}

// writeError answers err as a problem and logs it when it is internal.
func (s *Server) writeError(w http.ResponseWriter, r *http.Request, err error) {
	p := problemOf(r, err)
	if r.Context().Err() != nil && errors.Is(err, r.Context().Err()) {
		// The client went away or timed out; nobody reads the answer and
		// nothing is wrong with the service.
		s.log.DebugContext(r.Context(), "request abandoned", "err", err, "path", r.URL.Path)
		p.Status, p.Code, p.Title = 499, "client_closed_request", "Client closed request"
		writeProblem(w, p)
		return
	}
	if p.Status >= 500 {
		s.log.ErrorContext(r.Context(), "request failed", "err", err,
			"method", r.Method, "path", r.URL.Path, "request_id", p.RequestID)
	}
	writeProblem(w, p)
}

func writeProblem(w http.ResponseWriter, p *feedback.Problem) {
	w.Header().Set("Content-Type", "application/problem+json")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(p.Status)
	_ = json.NewEncoder(w).Encode(p)
}

// handlerFunc is the shape of every handler: it writes a response or
// returns an error, which the adapter answers.
type handlerFunc func(w http.ResponseWriter, r *http.Request) error

// handle adapts h to an http.HandlerFunc.
func (s *Server) handle(h handlerFunc) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		if err := h(w, r); err != nil {
			s.writeError(w, r, err)
		}
	}
}

// errNotFound is the error of every unknown route and foreign id.
var errNotFound = feedback.Errorf(feedback.ENotFound, "The requested resource does not exist.")

// isCode reports whether err carries code.
func isCode(err error, code string) bool {
	var e *feedback.Error
	return errors.As(err, &e) && e.Code == code
}
