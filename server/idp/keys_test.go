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

	"github.com/feedbackhq/feedback/server/idp/internal/idptest"

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
func jwks(e *idptest.Env) []string {
	e.T.Helper()
	p := idptest.Get(e.T, e.Srv.Client(), e.Issuer+"/keys")
	return kids(e.T, []byte(p.Body))
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
func verifies(e *idptest.Env, raw string) bool {
	ctx := oidc.ClientContext(context.Background(), e.Srv.Client())
	keys := oidc.NewRemoteKeySet(ctx, e.Issuer+"/keys")
	v := oidc.NewVerifier(e.Issuer, keys, &oidc.Config{ClientID: idptest.ClientID, SupportedSigningAlgs: []string{oidc.ES256}})
	_, err := v.Verify(ctx, raw)
	return err == nil
}

func TestKeyRotation(t *testing.T) {
	idptest.EachStore(t, func(t *testing.T, db *idptest.Database) {
		e := idptest.NewEnv(t, db, 1)
		e.Account(email, password)
		old := e.SignIn(e.RP(), email, password)
		first := jwks(e)
		if len(first) != 1 || kid(t, old.Raw) != first[0] {
			t.Fatalf("JWKS %v, token kid %s: want the one key", first, kid(t, old.Raw))
		}

		e.Clock.Add(31 * day)
		both := jwks(e)
		if len(both) != 2 || both[1] != first[0] {
			t.Fatalf("JWKS after 31 days: %v, want a new key then %s", both, first[0])
		}
		s := e.SignIn(e.RP(), email, password)
		if kid(t, s.Raw) != both[0] {
			t.Errorf("a new token is signed with %s, want the new key %s", kid(t, s.Raw), both[0])
		}
		e.Clock.Add(7*day - time.Minute)
		if !verifies(e, old.Raw) || !verifies(e, s.Raw) {
			t.Error("the old or the new token does not verify within 7 days of the rotation")
		}

		e.Clock.Add(2 * time.Minute)
		if got := jwks(e); !slices.Equal(got, both[:1]) {
			t.Errorf("JWKS 7 days after the rotation: %v, want %v", got, both[:1])
		}
		if verifies(e, old.Raw) || !verifies(e, s.Raw) {
			t.Error("after 7 days, want the old token refused and the new one verified")
		}
	})
}

func TestInstancesRotateOnce(t *testing.T) {
	idptest.EachStore(t, func(t *testing.T, db *idptest.Database) {
		e := idptest.NewEnv(t, db, 0)
		ps := make([]*idp.Provider, 4)
		concurrently(e, len(ps), func(i int) error {
			var err error
			ps[i], err = e.Open(t)
			return err
		})
		e.SetInstances(ps)
		if got := jwks(e); len(got) != 1 {
			t.Fatalf("four instances started at once publish %v, want one key", got)
		}
		e.Clock.Add(31 * day)
		sets := make([][]string, len(ps))
		concurrently(e, len(ps), func(i int) error {
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
func concurrently(e *idptest.Env, n int, fn func(i int) error) {
	e.T.Helper()
	errs := make([]error, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Go(func() { errs[i] = fn(i) })
	}
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			e.T.Fatalf("%d: %v", i, err)
		}
	}
}
