package oidctest

import (
	"context"
	"slices"

	"github.com/zitadel/oidc/v3/example/server/storage"
	"github.com/zitadel/oidc/v3/pkg/op"
)

// opStorage is the example storage as the provider needs it: with the
// client's post-logout redirect URI, the client's amr, and logouts that
// end the browser sessions too.
type opStorage struct {
	*storage.Storage
	p *Provider
}

var _ op.Storage = (*opStorage)(nil)

// GetClientByClientID implements op.Storage.
func (s *opStorage) GetClientByClientID(ctx context.Context, id string) (op.Client, error) {
	c, err := s.Storage.GetClientByClientID(ctx, id)
	if err != nil || s.p.c.PostLogout == "" {
		return c, err
	}
	return postLogoutClient{c, s.p.c.PostLogout}, nil
}

// postLogoutClient is a client with its post-logout redirect URI.
type postLogoutClient struct {
	op.Client
	uri string
}

func (c postLogoutClient) PostLogoutRedirectURIs() []string { return []string{c.uri} }

// TerminateSession implements op.Storage: the user's tokens at the
// client and the user's browser sessions end.
func (s *opStorage) TerminateSession(ctx context.Context, userID, clientID string) error {
	s.p.endSessions(userID)
	return s.Storage.TerminateSession(ctx, userID, clientID)
}

// AuthRequestByCode implements op.Storage.
func (s *opStorage) AuthRequestByCode(ctx context.Context, code string) (op.AuthRequest, error) {
	a, err := s.Storage.AuthRequestByCode(ctx, code)
	if err != nil || s.p.c.AMR == nil {
		return a, err
	}
	return amrRequest{a, slices.Clone(s.p.c.AMR)}, nil
}

// amrRequest is a sign-in that reports other methods.
type amrRequest struct {
	op.AuthRequest
	amr []string
}

func (a amrRequest) GetAMR() []string { return a.amr }
