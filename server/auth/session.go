package auth

import (
	"bytes"
	"context"
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
}

// Start creates a session for user and sets its cookies.
func (m *Sessions) Start(ctx context.Context, w http.ResponseWriter, user *server.User, amr []string, ip, ua string,
	providerToken []byte) (*server.Session, error) {
	now := m.Now()
	access, accessHash := newValue(accessPrefix)
	refresh, refreshHash := newValue(refreshPrefix)
	s := &server.Session{UserID: user.ID, AccessHash: accessHash, AccessExpiresAt: now.Add(AccessTTL),
		RefreshHash: refreshHash, RefreshExpiresAt: now.Add(RefreshTTL), AMR: amr, IP: ip, UserAgent: ua,
		ProviderToken: providerToken}
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
// while that is valid, otherwise renewed from the refresh cookie, which
// rotates (new cookies are set on w; a request that lost the race to
// renew to a concurrent one of the same browser proceeds without new
// cookies). It returns feedback errors: EUnauthenticated without cookies
// or with unknown or expired ones, ETokenRevoked for a revoked session.
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

// renew rotates the session of the refresh cookie.
func (m *Sessions) renew(w http.ResponseWriter, r *http.Request, now time.Time) (*server.Session, error) {
	c, err := r.Cookie(RefreshCookie)
	if err != nil || !secret.ValidToken(refreshPrefix, c.Value) {
		return nil, feedback.Errorf(feedback.EUnauthenticated, "Sign in to continue.")
	}
	access, accessHash := newValue(accessPrefix)
	refresh, refreshHash := newValue(refreshPrefix)
	s, err := m.Store.RotateSession(r.Context(), secret.Hash(c.Value),
		server.Rotation{AccessHash: accessHash, AccessExpiresAt: now.Add(AccessTTL), RefreshHash: refreshHash}, Grace)
	switch feedback.ErrorCode(err) {
	case "":
	case feedback.ENotFound:
		m.Clear(w)
		return nil, feedback.Errorf(feedback.EUnauthenticated, "Your session has ended; sign in again.")
	case feedback.ETokenRevoked:
		m.Clear(w)
		return nil, err
	default:
		return nil, err
	}
	if bytes.Equal(s.RefreshHash, refreshHash) { // not a concurrent renewal's loser
		setCookie(w, AccessCookie, access, AccessTTL, http.SameSiteStrictMode)
		setCookie(w, RefreshCookie, refresh, s.RefreshExpiresAt.Sub(now), http.SameSiteStrictMode)
	}
	return s, nil
}

// Clear removes the session cookies.
func (m *Sessions) Clear(w http.ResponseWriter) {
	clearCookie(w, AccessCookie, http.SameSiteStrictMode)
	clearCookie(w, RefreshCookie, http.SameSiteStrictMode)
}
