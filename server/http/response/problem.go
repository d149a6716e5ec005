package response

import (
	"encoding/json"
	"net/http"

	"github.com/feedbackhq/feedback/server/http/request"
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

// Status returns the HTTP status for err's code: 500 for an error
// without one.
func Status(err error) int {
	if k, ok := problemKinds[feedback.ErrorCode(err)]; ok {
		return k.status
	}
	return http.StatusInternalServerError
}

// Problem builds the problem body that answers err to r.
func Problem(r *http.Request, err error) *feedback.Problem {
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
		Detail: feedback.ErrorMessage(err), Code: code, RequestID: request.ID(r.Context()),
		InvalidParams: params,
	}
}

// WriteProblem answers p as application/problem+json.
func WriteProblem(w http.ResponseWriter, p *feedback.Problem) {
	w.Header().Set("Content-Type", "application/problem+json")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(p.Status)
	_ = json.NewEncoder(w).Encode(p)
}
