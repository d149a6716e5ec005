package idp

import (
	"context"
	"errors"
	"slices"
	"strings"
	"time"

	"github.com/zitadel/oidc/v3/pkg/oidc"
	"github.com/zitadel/oidc/v3/pkg/op"

	"github.com/feedbackhq/feedback/server/auth"
	"github.com/feedbackhq/feedback/server/secret"
	"github.com/feedbackhq/feedback/server/sqlstore"
)

// authRequest is a sign-in in progress, a row of idp_auth_requests:
// op.AuthRequest.
type authRequest struct {
	id, clientID, redirectURI, state, nonce string
	scopes                                  []string
	responseType                            oidc.ResponseType
	responseMode                            oidc.ResponseMode
	challenge, challengeMethod              string
	accountID                               string     // set by the password step
	passwordAt, authTime                    *time.Time // authTime: the sign-in is complete
	amr                                     []string
	mfaRequested                            bool // the client asked for a second factor (acr_values)
}

var _ op.AuthRequest = (*authRequest)(nil)

func (a *authRequest) GetID() string                      { return a.id }
func (a *authRequest) GetAMR() []string                   { return a.amr }
func (a *authRequest) GetAudience() []string              { return []string{a.clientID} }
func (a *authRequest) GetClientID() string                { return a.clientID }
func (a *authRequest) GetNonce() string                   { return a.nonce }
func (a *authRequest) GetRedirectURI() string             { return a.redirectURI }
func (a *authRequest) GetResponseType() oidc.ResponseType { return a.responseType }
func (a *authRequest) GetResponseMode() oidc.ResponseMode { return a.responseMode }
func (a *authRequest) GetScopes() []string                { return a.scopes }
func (a *authRequest) GetState() string                   { return a.state }
func (a *authRequest) GetSubject() string                 { return a.accountID }
func (a *authRequest) Done() bool                         { return a.authTime != nil }

// GetACR returns the class of a sign-in with a second factor,
// auth.MFAClass, and "" for others.
func (a *authRequest) GetACR() string {
	if auth.HasSecondFactor(a.amr) {
		return auth.MFAClass
	}
	return ""
}

func (a *authRequest) GetAuthTime() time.Time {
	if a.authTime == nil {
		return time.Time{}
	}
	return *a.authTime
}

func (a *authRequest) GetCodeChallenge() *oidc.CodeChallenge {
	return &oidc.CodeChallenge{Challenge: a.challenge, Method: oidc.CodeChallengeMethod(a.challengeMethod)}
}

const authRequestColumns = `id, client_id, redirect_uri, scopes, state, nonce, response_type, response_mode,
	code_challenge, code_challenge_method, account_id, password_at, auth_time, amr, mfa_requested`

func scanAuthRequest(row sqlstore.Row) (*authRequest, error) {
	a := &authRequest{}
	var scopes, amr, responseType, responseMode string
	err := row.Scan(&a.id, &a.clientID, &a.redirectURI, &scopes, &a.state, &a.nonce, &responseType,
		&responseMode, &a.challenge, &a.challengeMethod, sqlstore.OptString{S: &a.accountID}, atOpt(&a.passwordAt),
		atOpt(&a.authTime), &amr, &a.mfaRequested)
	if err != nil {
		return nil, orNotFound(err)
	}
	a.scopes, a.amr = words(scopes), words(amr)
	a.responseType, a.responseMode = oidc.ResponseType(responseType), oidc.ResponseMode(responseMode)
	return a, nil
}

// CreateAuthRequest stores a validated authorization request. It
// requires PKCE with S256 and refuses prompt=none: every sign-in shows
// the login page. Acr values that ask for a second factor
// (auth.IsMFAClass) make the sign-in require one.
func (s *storage) CreateAuthRequest(ctx context.Context, r *oidc.AuthRequest, _ string) (_ op.AuthRequest, err error) {
	if len(r.Prompt) == 1 && r.Prompt[0] == oidc.PromptNone {
		return nil, oidc.ErrLoginRequired()
	}
	if r.CodeChallenge == "" || r.CodeChallengeMethod != oidc.CodeChallengeMethodS256 {
		return nil, oidc.ErrInvalidRequest().WithDescription("PKCE with code_challenge_method S256 is required")
	}
	defer wrap(&err, "CreateAuthRequest")
	s.p.purgeSometimes(ctx)
	now := s.p.now()
	a := &authRequest{id: newID(), clientID: r.ClientID, redirectURI: r.RedirectURI, state: r.State, nonce: r.Nonce,
		scopes: r.Scopes, responseType: r.ResponseType, responseMode: r.ResponseMode,
		challenge: r.CodeChallenge, challengeMethod: string(r.CodeChallengeMethod),
		mfaRequested: slices.ContainsFunc(r.ACRValues, auth.IsMFAClass)}
	_, err = s.p.cfg.DB.Exec(ctx, `INSERT INTO idp_auth_requests (id, client_id, redirect_uri, scopes, state, nonce,
		response_type, response_mode, code_challenge, code_challenge_method, amr, mfa_requested, created_at, expires_at)
		VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, '', $11, $12, $13)`,
		a.id, a.clientID, a.redirectURI, strings.Join(a.scopes, " "), a.state, a.nonce, string(a.responseType),
		string(a.responseMode), a.challenge, a.challengeMethod, a.mfaRequested, now, now.Add(authRequestTTL))
	if err != nil {
		return nil, err
	}
	return a, nil
}

// AuthRequestByID returns a sign-in that has not expired.
func (s *storage) AuthRequestByID(ctx context.Context, id string) (op.AuthRequest, error) {
	a, err := s.p.authRequest(ctx, id)
	if err != nil {
		return nil, err
	}
	return a, nil
}

// authRequest returns the sign-in id if it has not expired, or
// errNotFound.
func (p *Provider) authRequest(ctx context.Context, id string) (_ *authRequest, err error) {
	defer wrap(&err, "authRequest")
	return scanAuthRequest(p.cfg.DB.QueryRow(ctx, `SELECT `+authRequestColumns+`
		FROM idp_auth_requests WHERE id = $1 AND expires_at > $2`, id, p.now()))
}

// SaveAuthCode records the code of a complete sign-in. A sign-in gets
// one code: its callback cannot be replayed for another.
func (s *storage) SaveAuthCode(ctx context.Context, id, code string) (err error) {
	defer wrap(&err, "SaveAuthCode")
	now := s.p.now()
	n, err := s.p.cfg.DB.Exec(ctx, `UPDATE idp_auth_requests SET code_hash = $2, code_expires_at = $3, expires_at = $4
		WHERE id = $1 AND auth_time IS NOT NULL AND code_hash IS NULL AND expires_at > $5`,
		id, secret.Hash(code), now.Add(codeTTL), now.Add(authRequestTTL), now)
	if err == nil && n == 0 {
		err = errors.New("the sign-in has expired or has its code already")
	}
	return err
}

// AuthRequestByCode spends a code: it returns its sign-in once. A code
// presented again revokes the tokens it was exchanged for.
func (s *storage) AuthRequestByCode(ctx context.Context, code string) (_ op.AuthRequest, err error) {
	defer wrap(&err, "AuthRequestByCode")
	now, hash := s.p.now(), secret.Hash(code)
	var a *authRequest
	err = s.p.cfg.DB.InTx(ctx, func(tx sqlstore.Conn) error { // UPDATE ... RETURNING runs on SQLite's writer only
		var err error
		a, err = scanAuthRequest(tx.QueryRow(ctx, `UPDATE idp_auth_requests SET code_used_at = $2
			WHERE code_hash = $1 AND code_used_at IS NULL AND code_expires_at > $2
			RETURNING `+authRequestColumns, hash, now))
		return err
	})
	if errors.Is(err, errNotFound) {
		return nil, errors.Join(err, s.p.codeReused(ctx, hash))
	}
	if err != nil {
		return nil, err
	}
	return a, nil
}

// codeReused revokes what a spent code was exchanged for.
func (p *Provider) codeReused(ctx context.Context, hash []byte) error {
	return p.cfg.DB.InTx(ctx, func(tx sqlstore.Conn) error {
		var id string
		err := tx.QueryRow(ctx, `SELECT id FROM idp_auth_requests WHERE code_hash = $1 AND code_used_at IS NOT NULL`,
			hash).Scan(&id)
		if err != nil {
			return orNotFound(err)
		}
		p.log.WarnContext(ctx, "idp: an authorization code was presented twice; its tokens are revoked")
		return deleteTokens(ctx, tx, "auth_request_id = $1", id)
	})
}

// DeleteAuthRequest is called once the code is exchanged. The row stays
// until it expires, so that a reused code can revoke what it issued.
func (s *storage) DeleteAuthRequest(context.Context, string) error { return nil }

// recordPassword records that the password of accountID was right for
// the sign-in id, which awaits a one-time code.
func (p *Provider) recordPassword(ctx context.Context, id, accountID string) error {
	now := p.now()
	return p.updateSignIn(ctx, `UPDATE idp_auth_requests SET account_id = $2, password_at = $3
		WHERE id = $1 AND auth_time IS NULL AND expires_at > $3`, id, accountID, now)
}

// complete records that the sign-in id authenticated accountID with amr.
// A sign-in with a one-time code must follow its password step.
func (p *Provider) complete(ctx context.Context, id, accountID string, amr []string) error {
	now := p.now()
	q := `UPDATE idp_auth_requests SET account_id = $2, auth_time = $3, amr = $4
		WHERE id = $1 AND auth_time IS NULL AND expires_at > $3`
	if len(amr) > 1 {
		q += ` AND account_id = $2 AND password_at IS NOT NULL`
	}
	return p.updateSignIn(ctx, q, id, accountID, now, strings.Join(amr, " "))
}

func (p *Provider) updateSignIn(ctx context.Context, q string, args ...any) (err error) {
	defer wrap(&err, "updateSignIn")
	n, err := p.cfg.DB.Exec(ctx, q, args...)
	if err == nil && n == 0 {
		err = errNotFound
	}
	return err
}
