package idp_test

import (
	"errors"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"testing"
	"time"

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
func (r *rp) refresh(token string) (*oauth2.Token, error) {
	return r.oauth.TokenSource(r.ctx, &oauth2.Token{RefreshToken: token}).Token()
}

// userinfo reports whether the userinfo endpoint accepts an access token.
func (r *rp) userinfo(tok *oauth2.Token) bool {
	_, err := r.provider.UserInfo(r.ctx, oauth2.StaticTokenSource(tok))
	return err == nil
}

// revoke posts a token to the revocation endpoint as the dashboard.
func (e *env) revoke(token, hint, secret string) int {
	e.t.Helper()
	form := url.Values{"token": {token}, "token_type_hint": {hint}}
	req, err := http.NewRequest(http.MethodPost, e.issuer+"/revoke", strings.NewReader(form.Encode()))
	if err != nil {
		e.t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.SetBasicAuth(clientID, secret)
	resp, err := e.srv.Client().Do(req)
	if err != nil {
		e.t.Fatal(err)
	}
	resp.Body.Close()
	return resp.StatusCode
}

func TestCodeSingleUse(t *testing.T) {
	eachStore(t, func(t *testing.T, db *database) {
		e := newEnv(t, db, 1)
		e.account(email, password)
		r := e.rp()
		f := e.start(r)
		f.password(email, password)
		s := f.mustExchange()
		_, err := f.exchange()
		wantInvalidGrant(t, "the code again", err)
		if r.userinfo(s.token) {
			t.Error("the access token of a reused code still works")
		}
		_, err = r.refresh(s.token.RefreshToken)
		wantInvalidGrant(t, "the refresh token of a reused code", err)

		t.Run("ErrExpired", func(t *testing.T) {
			f := e.start(r)
			f.password(email, password)
			e.clock.Add(6 * time.Minute)
			_, err := f.exchange()
			wantInvalidGrant(t, "a code 6 minutes old", err)
		})
		t.Run("ErrWrongVerifier", func(t *testing.T) {
			f := e.start(r)
			f.password(email, password)
			f.verifier = oauth2.GenerateVerifier()
			_, err := f.exchange()
			wantInvalidGrant(t, "another PKCE verifier", err)
		})
	})
}

func TestRefreshAndRevoke(t *testing.T) {
	eachStore(t, func(t *testing.T, db *database) {
		e := newEnv(t, db, 1)
		e.account(email, password)
		r := e.rp()
		s := e.signIn(r, email, password)

		next, err := r.refresh(s.token.RefreshToken)
		if err != nil {
			t.Fatalf("refresh: %v", err)
		}
		raw, _ := next.Extra("id_token").(string)
		id, err := r.verifier.Verify(r.ctx, raw)
		if err != nil {
			t.Fatalf("the refreshed ID token: %v", err)
		}
		var c claims
		_ = id.Claims(&c)
		if id.Subject != s.id.Subject || !slices.Equal(c.AMR, []string{"pwd"}) || c.AuthTime != s.claims.AuthTime {
			t.Errorf("refreshed ID token sub %q amr %v auth_time %d, want the sign-in's", id.Subject, c.AMR, c.AuthTime)
		}
		_, err = r.refresh(s.token.RefreshToken)
		wantInvalidGrant(t, "a rotated-out refresh token", err)
		if r.userinfo(s.token) || !r.userinfo(next) {
			t.Error("after rotation, want the old access token refused and the new one accepted")
		}

		if code := e.revoke(next.RefreshToken, "refresh_token", "wrong secret"); code != http.StatusUnauthorized {
			t.Errorf("revocation with a wrong client secret: %d", code)
		}
		if code := e.revoke(next.RefreshToken, "refresh_token", clientSecret); code != http.StatusOK {
			t.Fatalf("revocation: %d", code)
		}
		_, err = r.refresh(next.RefreshToken)
		wantInvalidGrant(t, "a revoked refresh token", err)
		if r.userinfo(next) {
			t.Error("the access token of a revoked refresh token still works")
		}

		s = e.signIn(r, email, password)
		if code := e.revoke(s.token.AccessToken, "access_token", clientSecret); code != http.StatusOK {
			t.Fatalf("revocation of an access token: %d", code)
		}
		if r.userinfo(s.token) {
			t.Error("a revoked access token still works")
		}
		if _, err := r.refresh(s.token.RefreshToken); err != nil {
			t.Errorf("the refresh token after its access token was revoked: %v", err)
		}
		if code := e.revoke("no such token", "", clientSecret); code != http.StatusOK {
			t.Errorf("revocation of an unknown token: %d, want 200 (RFC 7009)", code)
		}
	})
}

func TestEndSession(t *testing.T) {
	eachStore(t, func(t *testing.T, db *database) {
		e := newEnv(t, db, 1)
		e.account(email, password)
		r := e.rp()
		other := e.signIn(r, email, password) // on another device
		s := e.signIn(r, email, password)
		var meta struct {
			EndSession string `json:"end_session_endpoint"`
		}
		if err := r.provider.Claims(&meta); err != nil || meta.EndSession != e.issuer+"/end_session" {
			t.Fatalf("end_session_endpoint %q, %v", meta.EndSession, err)
		}
		f := &flow{e: e, rp: r, browser: e.srv.Client()}
		q := url.Values{"id_token_hint": {s.raw}, "post_logout_redirect_uri": {e.srv.URL + "/after-logout"}, "state": {"s1"}}
		p := f.do(http.NewRequest(http.MethodGet, meta.EndSession+"?"+q.Encode(), nil))
		if p.url.Path != "/after-logout" || p.url.Query().Get("state") != "s1" {
			t.Errorf("logout ended at %s", p.url)
		}
		_, err := r.refresh(s.token.RefreshToken)
		wantInvalidGrant(t, "the refresh token after logout", err)
		if r.userinfo(s.token) {
			t.Error("the access token still works after logout")
		}
		if _, err := r.refresh(other.token.RefreshToken); err != nil {
			t.Errorf("the logout ended the account's sign-in on another device too: %v", err)
		}

		p = f.do(http.NewRequest(http.MethodGet, meta.EndSession, nil))
		if p.status != http.StatusOK || !strings.Contains(p.body, "You have signed out.") {
			t.Errorf("logout without a redirect: %d %s", p.status, p.body)
		}
	})
}
