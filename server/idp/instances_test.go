package idp_test

import (
	"fmt"
	"net/http"
	"slices"
	"testing"

	"github.com/feedbackhq/feedback/server/idp/internal/idptest"
)

func TestInstancesShareState(t *testing.T) {
	idptest.EachStore(t, func(t *testing.T, db *idptest.Database) {
		e := idptest.NewEnv(t, db, 2)
		e.Account(email, password)
		r := e.RP()

		e.Serving.Store(0)
		s := e.SignIn(r, email, password)
		e.Serving.Store(1)
		if !verifies(e, s.Raw) {
			t.Error("instance 1's JWKS does not verify instance 0's ID token")
		}
		if !userinfo(r, s.Token) {
			t.Error("instance 1 refuses instance 0's access token")
		}
		next, err := refresh(r, s.Token.RefreshToken)
		if err != nil {
			t.Fatalf("instance 1 refreshing instance 0's refresh token: %v", err)
		}
		if code := revoke(e, next.RefreshToken, "refresh_token", idptest.ClientSecret); code != http.StatusOK {
			t.Fatalf("revocation at instance 1: %d", code)
		}
		e.Serving.Store(0)
		_, err = refresh(r, next.RefreshToken)
		wantInvalidGrant(t, "instance 0 refreshing a token revoked at instance 1", err)

		t.Run("EachRequestElsewhere", func(t *testing.T) {
			e.Serving.Store(-1)
			s := e.SignIn(r, email, password)
			if !slices.Equal(s.Claims.AMR, []string{"pwd"}) || !userinfo(r, s.Token) {
				t.Errorf("a sign-in across instances: amr %v", s.Claims.AMR)
			}
		})
		t.Run("Throttling", func(t *testing.T) {
			for i := range 5 {
				e.Serving.Store(int32(i % 2))
				if p := e.Start(r).Password(email, fmt.Sprintf("wrong %d", i)); p.Status != http.StatusUnauthorized {
					t.Fatalf("failure %d at instance %d: %d", i+1, i%2, p.Status)
				}
			}
			for i := range 2 {
				e.Serving.Store(int32(i))
				wantThrottled(t, e.Start(r).Password(email, password), "15 minutes")
			}
		})
	})
}
