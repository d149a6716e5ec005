package idp_test

import (
	"errors"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/feedbackhq/feedback/server/idp/internal/idptest"

	"golang.org/x/oauth2"
)

// wantInvalidGrant checks that err is the token endpoint's invalid_grant.
func wantInvalidGrant(t *testing.T, what string, err error) {
	t.Helper()
	var re *oauth2.RetrieveError
	if !errors.As(err, &re) || re.ErrorCode != "invalid_grant" {
		t.Errorf("%s: %v, want invalid_grant", what, err)
	}
}

// refresh uses a refresh token once.
func refresh(r *idptest.RP, token string) (*oauth2.Token, error) {
	return r.OAuth.TokenSource(r.Ctx, &oauth2.Token{RefreshToken: token}).Token()
}

// userinfo reports whether the userinfo endpoint accepts an access token.
func userinfo(r *idptest.RP, tok *oauth2.Token) bool {
	_, err := r.Provider.UserInfo(r.Ctx, oauth2.StaticTokenSource(tok))
	return err == nil
}

// revoke posts a token to the revocation endpoint as the dashboard.
func revoke(e *idptest.Env, token, hint, secret string) int {
	e.T.Helper()
	form := url.Values{"token": {token}, "token_type_hint": {hint}}
	req, err := http.NewRequest(http.MethodPost, e.Issuer+"/revoke", strings.NewReader(form.Encode()))
	if err != nil {
		e.T.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.SetBasicAuth(idptest.ClientID, secret)
	resp, err := e.Srv.Client().Do(req)
	if err != nil {
		e.T.Fatal(err)
	}
	resp.Body.Close()
	return resp.StatusCode
}

func TestCodeSingleUse(t *testing.T) {
	idptest.EachStore(t, func(t *testing.T, db *idptest.Database) {
		e := idptest.NewEnv(t, db, 1)
		e.Account(email, password)
		r := e.RP()
		f := e.Start(r)
		f.Password(email, password)
		s := f.MustExchange()
		_, err := f.Exchange()
		wantInvalidGrant(t, "the code again", err)
		if userinfo(r, s.Token) {
			t.Error("the access token of a reused code still works")
		}
		_, err = refresh(r, s.Token.RefreshToken)
		wantInvalidGrant(t, "the refresh token of a reused code", err)

		t.Run("ErrExpired", func(t *testing.T) {
			f := e.Start(r)
			f.Password(email, password)
			e.Clock.Add(6 * time.Minute)
			_, err := f.Exchange()
			wantInvalidGrant(t, "a code 6 minutes old", err)
		})
		t.Run("ErrWrongVerifier", func(t *testing.T) {
			f := e.Start(r)
			f.Password(email, password)
			f.Verifier = oauth2.GenerateVerifier()
			_, err := f.Exchange()
			wantInvalidGrant(t, "another PKCE verifier", err)
		})
	})
}

func TestRefreshAndRevoke(t *testing.T) {
	idptest.EachStore(t, func(t *testing.T, db *idptest.Database) {
		e := idptest.NewEnv(t, db, 1)
		e.Account(email, password)
		r := e.RP()
		s := e.SignIn(r, email, password)

		next, err := refresh(r, s.Token.RefreshToken)
		if err != nil {
			t.Fatalf("refresh: %v", err)
		}
		raw, _ := next.Extra("id_token").(string)
		id, err := r.Verifier.Verify(r.Ctx, raw)
		if err != nil {
			t.Fatalf("the refreshed ID token: %v", err)
		}
		var c idptest.Claims
		_ = id.Claims(&c)
		if id.Subject != s.ID.Subject || !slices.Equal(c.AMR, []string{"pwd"}) || c.AuthTime != s.Claims.AuthTime {
			t.Errorf("refreshed ID token sub %q amr %v auth_time %d, want the sign-in's", id.Subject, c.AMR, c.AuthTime)
		}
		_, err = refresh(r, s.Token.RefreshToken)
		wantInvalidGrant(t, "a rotated-out refresh token", err)
		if userinfo(r, s.Token) || !userinfo(r, next) {
			t.Error("after rotation, want the old access token refused and the new one accepted")
		}

		if code := revoke(e, next.RefreshToken, "refresh_token", "wrong secret"); code != http.StatusUnauthorized {
			t.Errorf("revocation with a wrong client secret: %d", code)
		}
		if code := revoke(e, next.RefreshToken, "refresh_token", idptest.ClientSecret); code != http.StatusOK {
			t.Fatalf("revocation: %d", code)
		}
		_, err = refresh(r, next.RefreshToken)
		wantInvalidGrant(t, "a revoked refresh token", err)
		if userinfo(r, next) {
			t.Error("the access token of a revoked refresh token still works")
		}

		s = e.SignIn(r, email, password)
		if code := revoke(e, s.Token.AccessToken, "access_token", idptest.ClientSecret); code != http.StatusOK {
			t.Fatalf("revocation of an access token: %d", code)
		}
		if userinfo(r, s.Token) {
			t.Error("a revoked access token still works")
		}
		if _, err := refresh(r, s.Token.RefreshToken); err != nil {
			t.Errorf("the refresh token after its access token was revoked: %v", err)
		}
		if code := revoke(e, "no such token", "", idptest.ClientSecret); code != http.StatusOK {
			t.Errorf("revocation of an unknown token: %d, want 200 (RFC 7009)", code)
		}
	})
}

func TestEndSession(t *testing.T) {
	idptest.EachStore(t, func(t *testing.T, db *idptest.Database) {
		e := idptest.NewEnv(t, db, 1)
		e.Account(email, password)
		r := e.RP()
		other := e.SignIn(r, email, password) // on another device
		s := e.SignIn(r, email, password)
		var meta struct {
			EndSession string `json:"end_session_endpoint"`
		}
		if err := r.Provider.Claims(&meta); err != nil || meta.EndSession != e.Issuer+"/end_session" {
			t.Fatalf("end_session_endpoint %q, %v", meta.EndSession, err)
		}
		f := &idptest.Flow{Env: e, RP: r, Browser: e.Srv.Client()}
		q := url.Values{"id_token_hint": {s.Raw}, "post_logout_redirect_uri": {e.Srv.URL + "/after-logout"}, "state": {"s1"}}
		p := f.Do(http.NewRequest(http.MethodGet, meta.EndSession+"?"+q.Encode(), nil))
		if p.URL.Path != "/after-logout" || p.URL.Query().Get("state") != "s1" {
			t.Errorf("logout ended at %s", p.URL)
		}
		_, err := refresh(r, s.Token.RefreshToken)
		wantInvalidGrant(t, "the refresh token after logout", err)
		if userinfo(r, s.Token) {
			t.Error("the access token still works after logout")
		}
		if _, err := refresh(r, other.Token.RefreshToken); err != nil {
			t.Errorf("the logout ended the account's sign-in on another device too: %v", err)
		}

		p = f.Do(http.NewRequest(http.MethodGet, meta.EndSession, nil))
		if p.Status != http.StatusOK || !strings.Contains(p.Body, "You have signed out.") {
			t.Errorf("logout without a redirect: %d %s", p.Status, p.Body)
		}
	})
}
