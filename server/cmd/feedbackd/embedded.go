package main

import (
	"context"
	"encoding/base64"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"strings"

	"github.com/feedbackhq/feedback/server"
	"github.com/feedbackhq/feedback/server/auth"
	feedbackhttp "github.com/feedbackhq/feedback/server/http"
	"github.com/feedbackhq/feedback/server/idp"
	"github.com/feedbackhq/feedback/server/idp/oidcfed"
	"github.com/feedbackhq/feedback/server/idp/samlfed"
	"github.com/feedbackhq/feedback/server/secret"
)

// dashboardClient is the embedded provider's client id of the dashboard.
const dashboardClient = "feedback-dashboard"

// embeddedProvider opens the embedded OpenID provider of the store, at
// baseURL/idp. Its client secret is derived from the keyring, so every
// instance sharing the key agrees on it without storing it.
func embeddedProvider(ctx context.Context, store server.Store, keys *secret.Keyring, baseURL string, log *slog.Logger) (*idp.Provider, string, error) {
	base := strings.TrimRight(baseURL, "/")
	clientSecret := base64.RawURLEncoding.EncodeToString(keys.Derive("embedded-idp-dashboard-client"))
	p, err := idp.New(ctx, idp.Config{Issuer: base + "/idp", Store: store, Keys: keys, Insecure: strings.HasPrefix(base, "http://"), Logger: log,
		Clients: []idp.Client{{ID: dashboardClient, Secret: clientSecret, RedirectURIs: []string{base + "/auth/callback"},
			PostLogoutRedirectURIs: []string{base + "/auth/signed-out"}}},
		Federators: []func(idp.Host) idp.Federator{oidcfed.New, samlfed.New}})
	return p, clientSecret, err
}

// useEmbeddedProvider makes cfg sign in through the embedded provider
// when no external issuer is configured: the provider is served at
// /idp, and the relying party reaches it in process.
func useEmbeddedProvider(ctx context.Context, cfg *feedbackhttp.Config) error {
	if cfg.OIDC.Issuer != "" {
		return nil
	}
	p, clientSecret, err := embeddedProvider(ctx, cfg.Store, cfg.Keyring, cfg.BaseURL, cfg.Logger)
	if err != nil {
		return fmt.Errorf("embedded identity provider: %w", err)
	}
	if cfg.OIDC.RequireMFA {
		if err := p.RequireMFA(ctx, true); err != nil {
			return err
		}
	}
	issuer := cfg.BaseURL + "/idp"
	cfg.IdP, cfg.Federations, cfg.Accounts = p.Handler(), p, p
	cfg.OIDC = auth.Config{Issuer: issuer, ClientID: dashboardClient, ClientSecret: clientSecret,
		RedirectURL: cfg.BaseURL + "/auth/callback", PostLogoutURL: cfg.BaseURL + "/auth/signed-out", RequireMFA: cfg.OIDC.RequireMFA,
		HTTPClient: &http.Client{Transport: auth.LocalTransport{Prefix: issuer, Handler: p.Handler()}}}
	return nil
}

// user runs "feedbackd user create --email E": an account of the
// embedded provider, and a one-time link to set its password.
func (m *Main) user(ctx context.Context, args []string) error {
	if len(args) == 0 || args[0] != "create" {
		return errors.New("user: the only subcommand is create --email EMAIL")
	}
	var d dbFlags
	var email, baseURL string
	fs := m.newFlags("user create")
	d.register(fs, m.Getenv)
	fs.StringVar(&email, "email", "", "the account's email address")
	fs.StringVar(&baseURL, "base-url", envOr(m.Getenv, "FEEDBACK_BASE_URL", "http://localhost:8080"),
		"public URL of the service, for the link (env FEEDBACK_BASE_URL)")
	if err := fs.Parse(args[1:]); err != nil {
		return err
	}
	if strings.TrimSpace(email) == "" || fs.NArg() > 0 {
		return errors.New("user create: --email is required and no arguments are taken")
	}
	return m.withStore(ctx, d, func(store server.Store, keys *secret.Keyring) error {
		p, _, err := embeddedProvider(ctx, store, keys, baseURL, slog.New(slog.NewTextHandler(m.Stderr, nil)))
		if err != nil {
			return err
		}
		link, err := p.CreateAccount(ctx, email)
		if err == nil {
			fmt.Fprintln(m.Stdout, link)
		}
		return err
	})
}
