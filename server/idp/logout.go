package idp

import (
	"context"
	"crypto/sha256"
	"encoding/base64"

	"github.com/zitadel/oidc/v3/pkg/op"

	"github.com/feedbackhq/feedback/server/sqlstore"
	"github.com/feedbackhq/feedback/shared/feedback"
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
	if _, ok := feedback.ParseUUID(req.UserID); !ok {
		return req.RedirectURI, nil
	}
	err := s.db().InTx(ctx, func(tx sqlstore.Conn) error {
		ids, err := signInsOf(ctx, tx, req.UserID, req.ClientID)
		for _, id := range ids {
			if err == nil && sessionID(id) == req.IDTokenHintClaims.SessionID {
				err = deleteTokens(ctx, tx, "auth_request_id = $1 AND account_id = $2 AND client_id = $3", id, req.UserID, req.ClientID)
			}
		}
		return err
	})
	if err != nil {
		return "", tokenError(err)
	}
	return req.RedirectURI, nil
}

// signInsOf returns the sign-ins that an account's tokens at a client
// descend from.
func signInsOf(ctx context.Context, tx sqlstore.Conn, accountID, clientID string) ([]string, error) {
	rows, err := tx.Query(ctx, `SELECT auth_request_id FROM idp_refresh_tokens WHERE account_id = $1 AND client_id = $2
		UNION SELECT auth_request_id FROM idp_access_tokens WHERE account_id = $1 AND client_id = $2`, accountID, clientID)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var ids []string
	for rows.Next() {
		var id string
		if err := rows.Scan(&id); err != nil {
			return nil, err
		}
		ids = append(ids, id)
	}
	return ids, rows.Err()
}
