package idp_test

import (
	"fmt"
	"net/http"
	"slices"
	"testing"
)

func TestInstancesShareState(t *testing.T) {
	eachStore(t, func(t *testing.T, db *database) {
		e := newEnv(t, db, 2)
		e.account(email, password)
		r := e.rp()

		e.serving.Store(0)
		s := e.signIn(r, email, password)
		e.serving.Store(1)
		if !e.verifies(s.raw) {
			t.Error("instance 1's JWKS does not verify instance 0's ID token")
		}
		if !r.userinfo(s.token) {
			t.Error("instance 1 refuses instance 0's access token")
		}
		next, err := r.refresh(s.token.RefreshToken)
		if err != nil {
			t.Fatalf("instance 1 refreshing instance 0's refresh token: %v", err)
		}
		if code := e.revoke(next.RefreshToken, "refresh_token", clientSecret); code != http.StatusOK {
			t.Fatalf("revocation at instance 1: %d", code)
		}
		e.serving.Store(0)
		_, err = r.refresh(next.RefreshToken)
		wantInvalidGrant(t, "instance 0 refreshing a token revoked at instance 1", err)

		t.Run("EachRequestElsewhere", func(t *testing.T) {
			e.serving.Store(-1)
			s := e.signIn(r, email, password)
			if !slices.Equal(s.claims.AMR, []string{"pwd"}) || !r.userinfo(s.token) {
				t.Errorf("a sign-in across instances: amr %v", s.claims.AMR)
			}
		})
		t.Run("Throttling", func(t *testing.T) {
			for i := range 5 {
				e.serving.Store(int32(i % 2))
				if p := e.start(r).password(email, fmt.Sprintf("wrong %d", i)); p.status != http.StatusUnauthorized {
					t.Fatalf("failure %d at instance %d: %d", i+1, i%2, p.status)
				}
			}
			for i := range 2 {
				e.serving.Store(int32(i))
				wantThrottled(t, e.start(r).password(email, password), "15 minutes")
			}
		})
	})
}
