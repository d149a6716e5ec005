package idp_test

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/coreos/go-oidc/v3/oidc"

	"github.com/feedbackhq/feedback/server/idp"
)

const day = 24 * time.Hour

// kids returns the key ids of a JWKS response.
func kids(t *testing.T, body []byte) []string {
	t.Helper()
	var set struct {
		Keys []struct {
			Kid string `json:"kid"`
			Alg string `json:"alg"`
			Use string `json:"use"`
		} `json:"keys"`
	}
	if err := json.Unmarshal(body, &set); err != nil {
		t.Fatalf("JWKS %s: %v", body, err)
	}
	var ids []string
	for _, k := range set.Keys {
		if k.Alg != "ES256" || k.Use != "sig" {
			t.Errorf("key %s: alg %s use %s, want ES256 sig", k.Kid, k.Alg, k.Use)
		}
		ids = append(ids, k.Kid)
	}
	return ids
}

// jwks returns the key ids the provider publishes.
func (e *env) jwks() []string {
	e.t.Helper()
	p := get(e.t, e.srv.Client(), e.issuer+"/keys")
	return kids(e.t, []byte(p.body))
}

// kid returns the key id in the header of a JWT.
func kid(t *testing.T, jwt string) string {
	t.Helper()
	b, err := base64.RawURLEncoding.DecodeString(strings.Split(jwt, ".")[0])
	var h struct {
		Kid string `json:"kid"`
	}
	if err == nil {
		err = json.Unmarshal(b, &h)
	}
	if err != nil {
		t.Fatal(err)
	}
	return h.Kid
}

// verifies reports whether an ID token verifies against the JWKS as it is
// now (a key set that has cached nothing).
func (e *env) verifies(raw string) bool {
	ctx := oidc.ClientContext(context.Background(), e.srv.Client())
	keys := oidc.NewRemoteKeySet(ctx, e.issuer+"/keys")
	v := oidc.NewVerifier(e.issuer, keys, &oidc.Config{ClientID: clientID, SupportedSigningAlgs: []string{oidc.ES256}})
	_, err := v.Verify(ctx, raw)
	return err == nil
}

func TestKeyRotation(t *testing.T) {
	eachStore(t, func(t *testing.T, db *database) {
		e := newEnv(t, db, 1)
		e.account(email, password)
		old := e.signIn(e.rp(), email, password)
		first := e.jwks()
		if len(first) != 1 || kid(t, old.raw) != first[0] {
			t.Fatalf("JWKS %v, token kid %s: want the one key", first, kid(t, old.raw))
		}

		e.clock.Add(31 * day)
		both := e.jwks()
		if len(both) != 2 || both[1] != first[0] {
			t.Fatalf("JWKS after 31 days: %v, want a new key then %s", both, first[0])
		}
		s := e.signIn(e.rp(), email, password)
		if kid(t, s.raw) != both[0] {
			t.Errorf("a new token is signed with %s, want the new key %s", kid(t, s.raw), both[0])
		}
		e.clock.Add(7*day - time.Minute)
		if !e.verifies(old.raw) || !e.verifies(s.raw) {
			t.Error("the old or the new token does not verify within 7 days of the rotation")
		}

		e.clock.Add(2 * time.Minute)
		if got := e.jwks(); !slices.Equal(got, both[:1]) {
			t.Errorf("JWKS 7 days after the rotation: %v, want %v", got, both[:1])
		}
		if e.verifies(old.raw) || !e.verifies(s.raw) {
			t.Error("after 7 days, want the old token refused and the new one verified")
		}
	})
}

func TestInstancesRotateOnce(t *testing.T) {
	eachStore(t, func(t *testing.T, db *database) {
		e := newEnv(t, db, 0)
		ps := make([]*idp.Provider, 4)
		e.concurrently(len(ps), func(i int) error {
			var err error
			ps[i], err = e.open(t)
			return err
		})
		e.setInstances(ps)
		if got := e.jwks(); len(got) != 1 {
			t.Fatalf("four instances started at once publish %v, want one key", got)
		}
		e.clock.Add(31 * day)
		sets := make([][]string, len(ps))
		e.concurrently(len(ps), func(i int) error {
			rec := httptest.NewRecorder()
			ps[i].Handler().ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/idp/keys", nil))
			sets[i] = kids(t, rec.Body.Bytes())
			return nil
		})
		for i, set := range sets {
			if len(set) != 2 || !slices.Equal(set, sets[0]) {
				t.Errorf("instance %d publishes %v, instance 0 %v: want the same two keys", i, set, sets[0])
			}
		}
	})
}

// concurrently runs fn(0..n-1) at once and fails the test on an error.
func (e *env) concurrently(n int, fn func(i int) error) {
	e.t.Helper()
	errs := make([]error, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Go(func() { errs[i] = fn(i) })
	}
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			e.t.Fatalf("%d: %v", i, err)
		}
	}
}
