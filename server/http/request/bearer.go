package request

import (
	"net/http"
	"strings"

	"github.com/feedbackhq/feedback/server/secret"
)

// Bearer returns the credential of r's "Authorization: Bearer" header
// when it is a well-formed token with prefix (secret.APITokenPrefix,
// secret.KioskTokenPrefix). given reports whether r has an
// Authorization header at all, so that callers can tell a missing
// credential from a malformed one.
func Bearer(r *http.Request, prefix string) (token string, given bool) {
	h := r.Header.Get("Authorization")
	if h == "" {
		return "", false
	}
	scheme, value, _ := strings.Cut(h, " ")
	value = strings.TrimSpace(value)
	if !strings.EqualFold(scheme, "Bearer") || !secret.ValidToken(prefix, value) {
		return "", true
	}
	return value, true
}
