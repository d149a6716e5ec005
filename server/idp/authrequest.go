package idp

import (
	"context"
	"errors"
	"slices"
	"time"

	"github.com/zitadel/oidc/v3/pkg/oidc"
	"github.com/zitadel/oidc/v3/pkg/op"

	"github.com/feedbackhq/feedback/server"
	"github.com/feedbackhq/feedback/server/auth"
	"github.com/feedbackhq/feedback/server/secret"
)

// authRequest is a sign-in in progress as op sees it: op.AuthRequest.
type authRequest struct{ server.IdPAuthRequest }

var _ op.AuthRequest = (*authRequest)(nil)

func (a *authRequest) GetID() string                      { return a.ID }
func (a *authRequest) GetAMR() []string                   { return a.AMR }
func (a *authRequest) GetAudience() []string              { return []string{a.ClientID} }
func (a *authRequest) GetClientID() string                { return a.ClientID }
func (a *authRequest) GetNonce() string                   { return a.Nonce }
func (a *authRequest) GetRedirectURI() string             { return a.RedirectURI }
func (a *authRequest) GetResponseType() oidc.ResponseType { return oidc.ResponseType(a.ResponseType) }
func (a *authRequest) GetResponseMode() oidc.ResponseMode { return oidc.ResponseMode(a.ResponseMode) }
func (a *authRequest) GetScopes() []string                { return a.Scopes }
func (a *authRequest) GetState() string                   { return a.State }
func (a *authRequest) GetSubject() string                 { return a.AccountID }
func (a *authRequest) Done() bool                         { return a.AuthTime != nil }

// GetACR returns the class of a sign-in with a second factor,
// auth.MFAClass, and "" for others.
func (a *authRequest) GetACR() string {
	if auth.HasSecondFactor(a.AMR) {
		return auth.MFAClass
	}
	return ""
}

func (a *authRequest) GetAuthTime() time.Time {
	if a.AuthTime == nil {
		return time.Time{}
	}
	return *a.AuthTime
}

func (a *authRequest) GetCodeChallenge() *oidc.CodeChallenge {
	return &oidc.CodeChallenge{Challenge: a.CodeChallenge, Method: oidc.CodeChallengeMethod(a.CodeChallengeMethod)}
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
	a := &authRequest{server.IdPAuthRequest{ID: newID(), ClientID: r.ClientID, RedirectURI: r.RedirectURI,
		State: r.State, Nonce: r.Nonce, Scopes: r.Scopes, ResponseType: string(r.ResponseType),
		ResponseMode: string(r.ResponseMode), CodeChallenge: r.CodeChallenge,
		CodeChallengeMethod: string(r.CodeChallengeMethod), MFARequested: slices.ContainsFunc(r.ACRValues, auth.IsMFAClass),
		ExpiresAt: now.Add(authRequestTTL)}}
	if err := s.p.cfg.Store.CreateIdPAuthRequest(ctx, &a.IdPAuthRequest, now); err != nil {
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
	a, err := p.cfg.Store.IdPAuthRequest(ctx, id, p.now())
	if err != nil {
		return nil, orNotFound(err)
	}
	return &authRequest{*a}, nil
}

// SaveAuthCode records the code of a complete sign-in. A sign-in gets
// one code: its callback cannot be replayed for another.
func (s *storage) SaveAuthCode(ctx context.Context, id, code string) (err error) {
	defer wrap(&err, "SaveAuthCode")
	now := s.p.now()
	err = s.p.cfg.Store.SaveIdPCode(ctx, id, secret.Hash(code), now.Add(codeTTL), now.Add(authRequestTTL), now)
	if errors.Is(orNotFound(err), errNotFound) {
		err = errors.New("the sign-in has expired or has its code already")
	}
	return err
}

// AuthRequestByCode spends a code: it returns its sign-in once. A code
// presented again revokes the tokens it was exchanged for.
func (s *storage) AuthRequestByCode(ctx context.Context, code string) (_ op.AuthRequest, err error) {
	defer wrap(&err, "AuthRequestByCode")
	hash := secret.Hash(code)
	a, err := s.p.cfg.Store.SpendIdPCode(ctx, hash, s.p.now())
	if err = orNotFound(err); errors.Is(err, errNotFound) {
		return nil, errors.Join(err, s.p.codeReused(ctx, hash))
	}
	if err != nil {
		return nil, err
	}
	return &authRequest{*a}, nil
}

// codeReused revokes what a spent code was exchanged for.
func (p *Provider) codeReused(ctx context.Context, hash []byte) error {
	err := orNotFound(p.cfg.Store.RevokeIdPCodeGrant(ctx, hash))
	if !errors.Is(err, errNotFound) {
		p.log.WarnContext(ctx, "idp: an authorization code was presented twice; its tokens are revoked")
	}
	return err
}

// DeleteAuthRequest is called once the code is exchanged. The row stays
// until it expires, so that a reused code can revoke what it issued.
func (s *storage) DeleteAuthRequest(context.Context, string) error { return nil }

// recordPassword records that the password of accountID was right for
// the sign-in id, which awaits a one-time code.
func (p *Provider) recordPassword(ctx context.Context, id, accountID string) (err error) {
	defer wrap(&err, "recordPassword")
	return orNotFound(p.cfg.Store.RecordIdPPassword(ctx, id, accountID, p.now()))
}

// complete records that the sign-in id authenticated accountID with amr;
// with afterPassword, only after its password step (for a one-time code).
func (p *Provider) complete(ctx context.Context, id, accountID string, afterPassword bool, amr ...string) (err error) {
	defer wrap(&err, "complete")
	return orNotFound(p.cfg.Store.CompleteIdPAuthRequest(ctx, id, accountID, amr, afterPassword, p.now()))
}
