package idp_test

import (
	"context"
	"testing"
	"time"

	"github.com/feedbackhq/feedback/server/idp/internal/idptest"

	"github.com/google/go-cmp/cmp"
)

// rows counts the rows of the provider's tables.
func rows(e *idptest.Env) map[string]int {
	e.T.Helper()
	db := e.DB.Open(e.T).SQL()
	m := map[string]int{}
	for _, table := range []string{"idp_auth_requests", "idp_access_tokens", "idp_refresh_tokens", "idp_throttle",
		"idp_password_links", "idp_signing_keys"} {
		var n int
		if err := db.QueryRow(context.Background(), `SELECT count(*) FROM `+table).Scan(&n); err != nil {
			e.T.Fatal(err)
		}
		m[table] = n
	}
	return m
}

func TestPurge(t *testing.T) {
	idptest.EachStore(t, func(t *testing.T, db *idptest.Database) {
		e := idptest.NewEnv(t, db, 1)
		e.Account(email, password)
		r := e.RP()
		e.SignIn(r, email, password)
		e.Start(r).Password(email, "wrong password")
		newLink(e, "bob@example.com")
		for i := range 2 {
			want := map[string]int{"idp_auth_requests": 2 + i, "idp_access_tokens": 1, "idp_refresh_tokens": 1,
				"idp_throttle": 2, "idp_password_links": 2, "idp_signing_keys": 1}
			if diff := cmp.Diff(want, rows(e)); diff != "" {
				t.Fatalf("before (-want +got):\n%s", diff)
			}
			if i == 0 {
				e.Clock.Add(9 * time.Minute) // an instance purges every 10 minutes
				e.Start(r)
			}
		}

		e.Clock.Add(31 * 24 * time.Hour) // every row has expired, and the key is due
		jwks(e)                          // rotates
		e.Start(r)
		want := map[string]int{"idp_auth_requests": 1, "idp_signing_keys": 2}
		if diff := cmp.Diff(want, nonZero(rows(e))); diff != "" {
			t.Errorf("after 31 days (-want +got):\n%s", diff)
		}
		e.Clock.Add(7 * 24 * time.Hour)
		e.Start(r)
		if got := rows(e)["idp_signing_keys"]; got != 1 {
			t.Errorf("7 days after the rotation, %d signing keys, want 1", got)
		}
	})
}

func nonZero(m map[string]int) map[string]int {
	for k, v := range m {
		if v == 0 {
			delete(m, k)
		}
	}
	return m
}
