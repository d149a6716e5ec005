package auth

import (
	"context"
	"errors"
	"log/slog"

	"github.com/feedbackhq/feedback/server"
	"github.com/feedbackhq/feedback/shared/feedback"
)

// Associated data that binds a session's sealed provider tokens to their
// purpose.
var (
	providerTokenAAD   = []byte("provider-refresh-token")
	providerIDTokenAAD = []byte("provider-id-token")
)

// endedByProvider is the revocation reason of a session whose provider
// refused to renew its tokens.
const endedByProvider = "ended by the identity provider"

// renewAtProvider refreshes the provider tokens of s, which the caller
// has claimed, into next. When the provider refuses, s is revoked and the
// error is ETokenRevoked; when it cannot be reached, s keeps its tokens
// and the renewal goes on (logged).
func (m *Sessions) renewAtProvider(ctx context.Context, s *server.Session, next *server.Rotation) error {
	if m.RP == nil || s.ProviderToken == nil {
		return nil
	}
	refresh, err := m.open(s.ProviderToken, providerTokenAAD)
	var tok *Tokens
	if err == nil {
		tok, err = m.RP.Refresh(ctx, refresh)
	}
	switch {
	case errors.Is(err, ErrRefused):
		m.log().InfoContext(ctx, "the identity provider refused to renew a session, which ends", "session", s.ID, "err", err)
		if err := m.Store.RevokeSession(ctx, s.UserID, s.ID, endedByProvider); err != nil && feedback.ErrorCode(err) != feedback.ENotFound {
			return err
		}
		return feedback.Errorf(feedback.ETokenRevoked, "Your identity provider has ended your sign-in; sign in again.")
	case err != nil:
		m.log().WarnContext(ctx, "the session is renewed without its identity provider", "session", s.ID, "err", err)
		return nil
	}
	next.ProviderToken = m.seal(tok.Refresh, providerTokenAAD)
	next.ProviderIDToken = m.seal(tok.IDToken, providerIDTokenAAD)
	return nil
}

// RevokeAtProvider revokes the provider refresh token of s (RFC 7009),
// for a session that ends; a failure is logged.
func (m *Sessions) RevokeAtProvider(ctx context.Context, s *server.Session) {
	if m.RP == nil || s.ProviderToken == nil {
		return
	}
	tok, err := m.open(s.ProviderToken, providerTokenAAD)
	if err == nil {
		err = m.RP.Revoke(ctx, tok)
	}
	if err != nil {
		m.log().WarnContext(ctx, "revoke at the identity provider", "session", s.ID, "err", err)
	}
}

// LogoutURL returns the provider's end_session URL for the browser of s
// (nil when there is no session) with state, or "" when the provider
// has no end_session_endpoint (see [RP.LogoutURL]).
func (m *Sessions) LogoutURL(ctx context.Context, s *server.Session, state string) string {
	if m.RP == nil {
		return ""
	}
	var hint string
	if s != nil && s.ProviderIDToken != nil {
		var err error
		if hint, err = m.open(s.ProviderIDToken, providerIDTokenAAD); err != nil {
			m.log().WarnContext(ctx, "open the session's ID token", "session", s.ID, "err", err)
		}
	}
	return m.RP.LogoutURL(ctx, hint, state)
}

// seal seals a provider token; nil for "".
func (m *Sessions) seal(token string, aad []byte) []byte {
	if token == "" {
		return nil
	}
	return m.Keys.Seal([]byte(token), aad)
}

func (m *Sessions) open(sealed, aad []byte) (string, error) {
	b, err := m.Keys.Open(sealed, aad)
	return string(b), err
}

func (m *Sessions) log() *slog.Logger {
	if m.Log == nil {
		return slog.Default()
	}
	return m.Log
}

// ProviderRefreshToken returns the provider refresh token of s, "" when
// it has none (or it does not open).
func (m *Sessions) ProviderRefreshToken(s *server.Session) string {
	if s.ProviderToken == nil {
		return ""
	}
	tok, err := m.open(s.ProviderToken, providerTokenAAD)
	if err != nil {
		return ""
	}
	return tok
}
