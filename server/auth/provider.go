package auth

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"time"

	"golang.org/x/oauth2"
)

// refreshTimeout bounds a renewal's refresh at the provider, well within
// Grace, so that the renewal's claim outlives it.
const refreshTimeout = 10 * time.Second

// ErrRefused is wrapped by the error of [RP.Refresh] when the provider
// refuses the refresh token: the grant was revoked or has expired, the
// user was disabled, or this client may no longer use it.
var ErrRefused = errors.New("the identity provider refused the refresh token")

// Tokens are what a refresh at the provider gives: the refresh token to
// keep (the same one when the provider does not rotate it) and a new ID
// token, "" when it gave none.
type Tokens struct {
	Refresh string
	IDToken string
}

// Refresh asks the provider for new tokens with a refresh token (RFC
// 6749 §6). An OAuth error answer (invalid_grant and the like; not
// temporarily_unavailable) wraps ErrRefused; any other error means the
// provider could not be reached or failed. The new ID token is not
// verified: it comes straight from the token endpoint over TLS (OpenID
// Connect Core §3.1.3.7), and serves only as the provider's own
// id_token_hint.
func (rp *RP) Refresh(ctx context.Context, refresh string) (*Tokens, error) {
	if err := rp.discover(ctx); err != nil {
		return nil, err
	}
	ctx, cancel := context.WithTimeout(ctx, refreshTimeout)
	defer cancel()
	tok, err := rp.oauth.TokenSource(rp.ctx(ctx), &oauth2.Token{RefreshToken: refresh}).Token()
	var re *oauth2.RetrieveError
	if errors.As(err, &re) && re.ErrorCode != "" && re.ErrorCode != "temporarily_unavailable" &&
		re.Response != nil && re.Response.StatusCode < http.StatusInternalServerError {
		return nil, fmt.Errorf("%w: %w", ErrRefused, err)
	}
	if err != nil {
		return nil, fmt.Errorf("auth: refresh at the provider: %w", err)
	}
	raw, _ := tok.Extra("id_token").(string)
	return &Tokens{Refresh: tok.RefreshToken, IDToken: raw}, nil
}

// Revoke revokes a provider refresh token (RFC 7009) when the provider
// has a revocation endpoint; it does nothing otherwise.
func (rp *RP) Revoke(ctx context.Context, token string) error {
	if token == "" {
		return nil
	}
	if err := rp.discover(ctx); err != nil || rp.meta.Revocation == "" {
		return err
	}
	form := url.Values{"token": {token}, "token_type_hint": {"refresh_token"}}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, rp.meta.Revocation, strings.NewReader(form.Encode()))
	if err != nil {
		return err
	}
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.SetBasicAuth(url.QueryEscape(rp.cfg.ClientID), url.QueryEscape(rp.cfg.ClientSecret))
	c := rp.cfg.HTTPClient
	if c == nil {
		c = http.DefaultClient
	}
	res, err := c.Do(req)
	if err != nil {
		return err
	}
	res.Body.Close()
	if res.StatusCode != http.StatusOK {
		return fmt.Errorf("auth: revocation answered %d", res.StatusCode)
	}
	return nil
}

// LogoutURL returns where to send the browser to end its session at the
// provider (OpenID Connect RP-Initiated Logout): the end_session_endpoint
// with client_id, id_token_hint (when not ""), post_logout_redirect_uri
// and state, which the provider hands back to the post-logout page. It
// returns "" when the provider has no end_session_endpoint, or when its
// discovery fails.
func (rp *RP) LogoutURL(ctx context.Context, idTokenHint, state string) string {
	if rp.discover(ctx) != nil || rp.meta.EndSession == "" {
		return ""
	}
	u, err := url.Parse(rp.meta.EndSession)
	if err != nil {
		return ""
	}
	q := u.Query()
	q.Set("client_id", rp.cfg.ClientID)
	for k, v := range map[string]string{"post_logout_redirect_uri": rp.cfg.PostLogoutURL, "id_token_hint": idTokenHint, "state": state} {
		if v != "" {
			q.Set(k, v)
		}
	}
	u.RawQuery = q.Encode()
	return u.String()
}
