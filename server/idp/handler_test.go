package idp_test

import (
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"

	"github.com/feedbackhq/feedback/server/idp/internal/idptest"

	"github.com/go-chi/chi/v5"
)

// TestHandlerMounts checks that the handler answers under the issuer's
// path however it is mounted: the tests' http.ServeMux serves it at
// "/idp/"; the service's chi router may Mount it or route "/idp/*" to it.
func TestHandlerMounts(t *testing.T) {
	idptest.EachStore(t, func(t *testing.T, db *idptest.Database) {
		e := idptest.NewEnv(t, db, 1)
		mounted, routed := chi.NewRouter(), chi.NewRouter()
		mounted.Mount("/idp", e.P().Handler())
		routed.Handle("/idp/*", e.P().Handler())
		for name, h := range map[string]http.Handler{"Mount": mounted, "Handle": routed} {
			for _, path := range []string{"/idp/.well-known/openid-configuration", "/idp/keys", "/idp/idp.css", "/idp/signed-out"} {
				rec := httptest.NewRecorder()
				h.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, path, nil))
				if rec.Code != http.StatusOK {
					t.Errorf("%s: GET %s: %d %s", name, path, rec.Code, rec.Body)
				}
			}
		}
	})
}

// TestCrossOriginPost: a form posted to a idptest.Page from another site is
// refused with a idptest.Page that says so in words, not net/http's text.
func TestCrossOriginPost(t *testing.T) {
	idptest.EachStore(t, func(t *testing.T, db *idptest.Database) {
		e := idptest.NewEnv(t, db, 1)
		req := httptest.NewRequest(http.MethodPost, "/idp/login?authRequestID=x",
			strings.NewReader(url.Values{"email": {email}, "password": {password}}.Encode()))
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		req.Header.Set("Sec-Fetch-Site", "cross-site")
		rec := httptest.NewRecorder()
		e.P().Handler().ServeHTTP(rec, req)
		body := rec.Body.String()
		if rec.Code != http.StatusForbidden || !strings.HasPrefix(rec.Header().Get("Content-Type"), "text/html") ||
			!strings.Contains(body, "sent from another site") || strings.Contains(body, "cross-origin request detected") {
			t.Errorf("a cross-site post answered %d %s:\n%s", rec.Code, rec.Header().Get("Content-Type"), body)
		}
	})
}
