package auth

import (
	"bytes"
	"context"
	"log/slog"
	"net/http"
	"time"

	"github.com/feedbackhq/feedback/server"
	"github.com/feedbackhq/feedback/server/secret"
	"github.com/feedbackhq/feedback/shared/feedback"
)

// Sessions issues, renews and ends dashboard sessions.
type Sessions struct {
	Store server.AuthStore
	Now   func() time.Time
	// RP is the provider's relying party, which renews a session's
	// provider tokens hourly and revokes them; nil when sign-in is not
	// configured.
	RP *RP
	// Keys seal the provider's tokens in the session.
	Keys *secret.Keyring
	// Log receives what the person cannot see: a provider that cannot be
	// reached, a revocation that failed. Nil means slog.Default().
	Log *slog.Logger
}

// Start creates a session for user, signed in as id says, and sets its
// cookies. The provider's refresh and ID tokens are kept sealed.
func (m *Sessions) Start(ctx context.Context, w http.ResponseWriter, user *server.User, id *Identity, ip, ua string) (*server.Session, error) {
	now := m.Now()
	access, accessHash := newValue(accessPrefix)
	refresh, refreshHash := newValue(refreshPrefix)
	s := &server.Session{UserID: user.ID, AccessHash: accessHash, AccessExpiresAt: now.Add(AccessTTL),
		RefreshHash: refreshHash, RefreshExpiresAt: now.Add(RefreshTTL), AMR: id.AMR, IP: ip, UserAgent: ua,
		ProviderToken: m.seal(id.RefreshToken, providerTokenAAD), ProviderIDToken: m.seal(id.IDToken, providerIDTokenAAD)}
	if err := m.Store.CreateSession(ctx, s); err != nil {
		return nil, err
	}
	setCookie(w, AccessCookie, access, AccessTTL, http.SameSiteStrictMode)
	setCookie(w, RefreshCookie, refresh, RefreshTTL, http.SameSiteStrictMode)
	return s, nil
}

// HasCookies reports whether the request carries a session cookie.
func HasCookies(r *http.Request) bool {
	_, a := r.Cookie(AccessCookie)
	_, b := r.Cookie(RefreshCookie)
	return a == nil || b == nil
}

// Authenticate returns the request's live session: by its access cookie
// while that is valid, otherwise renewed from the refresh cookie (see
// renew). It returns feedback errors: EUnauthenticated without cookies
// or with unknown or expired ones, ETokenRevoked for a revoked session
// or one that the provider ended.
func (m *Sessions) Authenticate(w http.ResponseWriter, r *http.Request) (*server.Session, error) {
	now := m.Now()
	if c, err := r.Cookie(AccessCookie); err == nil && secret.ValidToken(accessPrefix, c.Value) {
		s, err := m.Store.SessionByAccess(r.Context(), secret.Hash(c.Value))
		switch {
		case err == nil && s.RevokedAt != nil:
			m.Clear(w)
			return nil, feedback.Errorf(feedback.ETokenRevoked, "This session was ended (%s); sign in again.", s.RevokedReason)
		case err == nil && now.Before(s.AccessExpiresAt) && now.Before(s.RefreshExpiresAt):
			return s, nil
		case err != nil && feedback.ErrorCode(err) != feedback.ENotFound:
			return nil, err
		}
	}
	return m.renew(w, r, now)
}

// renew rotates the session of the refresh cookie (new cookies are set
// on w). The request that claims the renewal first also renews the
// session's provider tokens, and the session ends when the provider
// refuses; a request that lost the race to a concurrent one of the same
// browser proceeds without new cookies.
func (m *Sessions) renew(w http.ResponseWriter, r *http.Request, now time.Time) (*server.Session, error) {
	c, err := r.Cookie(RefreshCookie)
	if err != nil || !secret.ValidToken(refreshPrefix, c.Value) {
		return nil, feedback.Errorf(feedback.EUnauthenticated, "Sign in to continue.")
	}
	hash := secret.Hash(c.Value)
	s, claimed, err := m.Store.ClaimRenewal(r.Context(), hash, Grace)
	if err != nil || !claimed {
		return s, m.ended(w, err)
	}
	access, accessHash := newValue(accessPrefix)
	refresh, refreshHash := newValue(refreshPrefix)
	next := server.Rotation{AccessHash: accessHash, AccessExpiresAt: now.Add(AccessTTL), RefreshHash: refreshHash}
	if err := m.renewAtProvider(r.Context(), s, &next); err != nil {
		return nil, m.ended(w, err)
	}
	s, err = m.Store.RotateSession(r.Context(), hash, next, Grace)
	if err != nil {
		return nil, m.ended(w, err)
	}
	if bytes.Equal(s.RefreshHash, refreshHash) {
		setCookie(w, AccessCookie, access, AccessTTL, http.SameSiteStrictMode)
		setCookie(w, RefreshCookie, refresh, s.RefreshExpiresAt.Sub(now), http.SameSiteStrictMode)
	}
	return s, nil
}

// ended clears the cookies of a session that a renewal found over: an
// unknown, expired or revoked one (EUnauthenticated), or a revocation
// (ETokenRevoked). Other errors pass, nil included.
func (m *Sessions) ended(w http.ResponseWriter, err error) error {
	switch feedback.ErrorCode(err) {
	case feedback.ENotFound:
		m.Clear(w)
		return feedback.Errorf(feedback.EUnauthenticated, "Your session has ended; sign in again.")
	case feedback.ETokenRevoked:
		m.Clear(w)
	}
	return err
}

// Clear removes the session cookies.
func (m *Sessions) Clear(w http.ResponseWriter) {
	clearCookie(w, AccessCookie, http.SameSiteStrictMode)
	clearCookie(w, RefreshCookie, http.SameSiteStrictMode)
}
