package idp

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strconv"

	"github.com/feedbackhq/feedback/server/auth"
)

// secondFactorRequired reports whether sign-in a needs a second factor:
// its client asked for one (acr_values), or the organisation requires
// one.
func (p *Provider) secondFactorRequired(ctx context.Context, a *authRequest) (bool, error) {
	if a.MFARequested {
		return true, nil
	}
	return p.mfaRequired(ctx)
}

// discovery serves op's discovery document with acr_values_supported:
// the class of a sign-in with a second factor, which a client may ask
// for (op's document has no such field).
func discovery(o http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		rec := httptest.NewRecorder()
		o.ServeHTTP(rec, r)
		var doc map[string]any
		if rec.Code != http.StatusOK || json.Unmarshal(rec.Body.Bytes(), &doc) != nil {
			w.WriteHeader(rec.Code)
			_, _ = w.Write(rec.Body.Bytes())
			return
		}
		doc["acr_values_supported"] = []string{auth.MFAClass}
		b, _ := json.Marshal(doc)
		for k, v := range rec.Header() {
			w.Header()[k] = v
		}
		w.Header().Set("Content-Length", strconv.Itoa(len(b)))
		_, _ = w.Write(b)
	})
}
