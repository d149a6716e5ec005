package response

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strconv"

	"github.com/feedbackhq/feedback/shared/feedback"
)

// JSON answers v as JSON with status. A value that writes its own JSON
// ([feedback.JSONAppender], the same document encoding/json writes) is
// written without reflection: a visitor's submission is answered so.
func JSON(w http.ResponseWriter, status int, v any) error {
	if a, ok := v.(feedback.JSONAppender); ok {
		return write(w, status, append(a.AppendJSON(make([]byte, 0, 512)), '\n'))
	}
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Errorf("encode response: %w", err)
	}
	return write(w, status, append(b, '\n'))
}

// write answers the JSON document b with status.
func write(w http.ResponseWriter, status int, b []byte) error {
	h := w.Header()
	h.Set("Content-Type", "application/json")
	// A known length spares the body chunked framing; the compressor
	// drops it when it compresses.
	h.Set("Content-Length", strconv.Itoa(len(b)))
	w.WriteHeader(status)
	_, _ = w.Write(b)
	return nil
}

// Page answers a list envelope: a page of items, of total in all.
// Items that write their own JSON ([feedback.JSONAppender]) are written
// without reflection, into the same bytes.
func Page[T any](w http.ResponseWriter, items []T, total int, p feedback.ListParams) error {
	page := feedback.NewPage(items, total, p)
	if _, ok := any(*new(T)).(feedback.JSONAppender); !ok {
		return JSON(w, http.StatusOK, page)
	}
	meta, err := json.Marshal(page.Meta)
	if err != nil {
		return fmt.Errorf("encode response: %w", err)
	}
	b := make([]byte, 0, 64+len(meta)+400*len(items))
	b = append(b, `{"data":[`...)
	for i, it := range page.Data {
		if i > 0 {
			b = append(b, ',')
		}
		b = any(it).(feedback.JSONAppender).AppendJSON(b)
	}
	b = append(append(append(b, `],"meta":`...), meta...), "}\n"...)
	return write(w, http.StatusOK, b)
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
