package http

import (
	"net/http"

	"github.com/go-chi/chi/v5"

	"github.com/feedbackhq/feedback/shared/feedback"
)

// pathID returns the UUID in the URL parameter name. A malformed id names
// nothing, so it is a 404 like an unknown one.
func pathID(r *http.Request, name string) (string, error) {
	id, ok := feedback.ParseUUID(chi.URLParam(r, name))
	if !ok {
		return "", errNotFound
	}
	return id, nil
}

// listParams parses the paging parameters and the named filters.
func listParams(r *http.Request, filters ...string) (feedback.ListParams, error) {
	return feedback.ParseListParams(r.URL.Query(), filters...)
}

// writePage answers a list envelope.
func writePage[T any](w http.ResponseWriter, items []T, total int, p feedback.ListParams) error {
	return writeJSON(w, http.StatusOK, feedback.NewPage(items, total, p))
}

// noQuery refuses query parameters on endpoints that take none.
func noQuery(r *http.Request) error {
	var v feedback.Validator
	for name := range r.URL.Query() {
		v.Add(name, "is not a parameter of this endpoint")
	}
	return v.ParamErr()
}
