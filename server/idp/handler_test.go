package idp_test

import (
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/go-chi/chi/v5"
)

// TestHandlerMounts checks that the handler answers under the issuer's
// path however it is mounted: the tests' http.ServeMux serves it at
// "/idp/"; the service's chi router may Mount it or route "/idp/*" to it.
func TestHandlerMounts(t *testing.T) {
	eachStore(t, func(t *testing.T, db *database) {
		e := newEnv(t, db, 1)
		mounted, routed := chi.NewRouter(), chi.NewRouter()
		mounted.Mount("/idp", e.p().Handler())
		routed.Handle("/idp/*", e.p().Handler())
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
