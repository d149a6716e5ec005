package response

import (
	"encoding/json"
	"fmt"
	"net/http"

	"github.com/feedbackhq/feedback/shared/feedback"
)

// JSON answers v as JSON with status.
func JSON(w http.ResponseWriter, status int, v any) error {
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Errorf("encode response: %w", err)
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_, _ = w.Write(append(b, '\n'))
	return nil
}

// Page answers a list envelope: a page of items, of total in all.
func Page[T any](w http.ResponseWriter, items []T, total int, p feedback.ListParams) error {
	return JSON(w, http.StatusOK, feedback.NewPage(items, total, p))
}

// All answers every item as one page (lists that stay small: a user's
// sessions, a workspace's tokens and members).
func All[T any](w http.ResponseWriter, items []T) error {
	return Page(w, items, len(items), feedback.ListParams{Page: 1, PerPage: min(max(len(items), 1), feedback.MaxPerPage)})
}

// NoContent answers 204.
func NoContent(w http.ResponseWriter) error {
	w.WriteHeader(http.StatusNoContent)
	return nil
}
