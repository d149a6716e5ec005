package request

import (
	"net/http"

	"github.com/go-chi/chi/v5"

	"github.com/feedbackhq/feedback/shared/feedback"
)

// ErrNotFound is the error of every unknown route and foreign id.
var ErrNotFound = feedback.Errorf(feedback.ENotFound, "The requested resource does not exist.")

// PathID returns the UUID in the URL parameter name. A malformed id names
// nothing, so it is [ErrNotFound] like an unknown one.
func PathID(r *http.Request, name string) (string, error) {
	id, ok := feedback.ParseUUID(chi.URLParam(r, name))
	if !ok {
		return "", ErrNotFound
	}
	return id, nil
}

// ListParams parses the paging parameters and the named filters.
func ListParams(r *http.Request, filters ...string) (feedback.ListParams, error) {
	return feedback.ParseListParams(r.URL.Query(), filters...)
}

// NoQuery refuses query parameters on endpoints that take none.
func NoQuery(r *http.Request) error {
	var v feedback.Validator
	for name := range r.URL.Query() {
		v.Add(name, "is not a parameter of this endpoint")
	}
	return v.ParamErr()
}
