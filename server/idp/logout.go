package idp

import (
	"context"
	"crypto/sha256"
	"encoding/base64"

	"github.com/zitadel/oidc/v3/pkg/op"
)

var _ op.CanTerminateSessionFromRequest = (*storage)(nil)

// sessionID is the sid claim of the ID tokens of the sign-in
// authRequestID: a hash of it, so that an ID token (which travels in the
// URL of a logout as its id_token_hint) does not reveal the id that names
// the sign-in's login page.
func sessionID(authRequestID string) string {
	h := sha256.Sum256([]byte("sid:" + authRequestID))
	return base64.RawURLEncoding.EncodeToString(h[:16])
}

// TerminateSessionFromRequest ends a logout (end_session): it revokes
// the tokens of the one sign-in that the id_token_hint names by its sid,
// and returns where to go next. The provider keeps no browser session of
// its own, so that is all there is to end, and the account's sign-ins on
// other devices go on. Without a hint, or with one of no sign-in, nothing
// is revoked.
func (s *storage) TerminateSessionFromRequest(ctx context.Context, req *op.EndSessionRequest) (string, error) {
	if req.IDTokenHintClaims == nil || req.IDTokenHintClaims.SessionID == "" {
		return req.RedirectURI, nil
	}
	ids, err := s.p.cfg.Store.IdPSignIns(ctx, req.UserID, req.ClientID)
	for _, id := range ids {
		if err == nil && sessionID(id) == req.IDTokenHintClaims.SessionID {
			err = s.p.cfg.Store.RevokeIdPSignIn(ctx, id, req.UserID, req.ClientID)
		}
	}
	if err != nil {
		return "", tokenError(err)
	}
	return req.RedirectURI, nil
}
