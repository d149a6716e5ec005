package idp_test

import (
	"context"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// rows counts the rows of the provider's tables.
func (e *env) rows() map[string]int {
	e.t.Helper()
	db := e.db.open(e.t).SQL()
	m := map[string]int{}
	for _, table := range []string{"idp_auth_requests", "idp_access_tokens", "idp_refresh_tokens", "idp_throttle",
		"idp_password_links", "idp_signing_keys"} {
		var n int
		if err := db.QueryRow(context.Background(), `SELECT count(*) FROM `+table).Scan(&n); err != nil {
			e.t.Fatal(err)
		}
		m[table] = n
	}
	return m
}

func TestPurge(t *testing.T) {
	eachStore(t, func(t *testing.T, db *database) {
		e := newEnv(t, db, 1)
		e.account(email, password)
		r := e.rp()
		e.signIn(r, email, password)
		e.start(r).password(email, "wrong password")
		e.newLink("bob@example.com")
		for i := range 2 {
			want := map[string]int{"idp_auth_requests": 2 + i, "idp_access_tokens": 1, "idp_refresh_tokens": 1,
				"idp_throttle": 2, "idp_password_links": 2, "idp_signing_keys": 1}
			if diff := cmp.Diff(want, e.rows()); diff != "" {
				t.Fatalf("before (-want +got):\n%s", diff)
			}
			if i == 0 {
				e.clock.Add(9 * time.Minute) // an instance purges every 10 minutes
				e.start(r)
			}
		}

		e.clock.Add(31 * 24 * time.Hour) // every row has expired, and the key is due
		e.jwks()                         // rotates
		e.start(r)
		want := map[string]int{"idp_auth_requests": 1, "idp_signing_keys": 2}
		if diff := cmp.Diff(want, nonZero(e.rows())); diff != "" {
			t.Errorf("after 31 days (-want +got):\n%s", diff)
		}
		e.clock.Add(7 * 24 * time.Hour)
		e.start(r)
		if got := e.rows()["idp_signing_keys"]; got != 1 {
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
