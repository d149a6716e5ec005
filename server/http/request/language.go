package request

import (
	"net/http"

	"github.com/feedbackhq/feedback/shared/i18n"
)

// Language returns the language of a page or a poster for people: a
// supported ?lang= first, then Accept-Language.
func Language(r *http.Request) string {
	if l, ok := i18n.Normalize(r.URL.Query().Get("lang")); ok {
		return l
	}
	return i18n.Match(r.Header.Get("Accept-Language"))
}
