package main

import (
	"context"
	"fmt"
	"log/slog"
	"net"
	"strings"

	"github.com/feedbackhq/feedback/server"
	"github.com/feedbackhq/feedback/server/secret"
	"github.com/feedbackhq/feedback/server/workspace"
	"github.com/feedbackhq/feedback/shared/feedback"
)

// demoSlug names the demo workspace; running demo again reuses it.
const demoSlug = "demo"

// demo handles "feedbackd demo": a workspace with locations, an active
// review, an active survey, a poster for each form and some submissions.
// It prints a new API token, revoking the ones it printed before, and the
// visitor URLs.
func (m *Main) demo(ctx context.Context, args []string) error {
	clock := new(seedClock)
	d := dbFlags{now: clock.Now}
	var baseURL string
	fs := m.newFlags("demo")
	d.register(fs, m.Getenv)
	fs.StringVar(&baseURL, "base-url", envOr(m.Getenv, "FEEDBACK_BASE_URL", "http://localhost:"+defaultPort(m.Getenv)),
		"public URL printed in the visitor links (env FEEDBACK_BASE_URL; default http://localhost and the port of FEEDBACK_ADDR, else 8080)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	return m.withStore(ctx, d, func(store server.Store, keys *secret.Keyring) error {
		ws, err := store.WorkspaceBySlug(ctx, demoSlug)
		if feedback.ErrorCode(err) == feedback.ENotFound {
			ws, err = seedDemo(ctx, store, keys, clock)
		}
		if err != nil {
			return err
		}
		token, err := renewDemoToken(ctx, store, ws.ID)
		if err != nil {
			return err
		}
		base := strings.TrimRight(baseURL, "/")
		if err := m.printDemo(ctx, store, keys, ws, token, base); err != nil {
			return err
		}
		return m.demoAccount(ctx, store, keys, base)
	})
}

// demoTokenName names the tokens the demo prints.
const demoTokenName = "demo"

// renewDemoToken revokes the demo tokens printed before and returns a
// new one, so that running the demo again leaves one valid demo token.
func renewDemoToken(ctx context.Context, store server.Store, ws string) (string, error) {
	tokens, err := store.Tokens(ctx, ws)
	if err != nil {
		return "", err
	}
	for _, t := range tokens {
		if t.Name == demoTokenName && t.RevokedAt == nil {
			if _, err := store.RevokeToken(ctx, ws, t.ID); err != nil {
				return "", err
			}
		}
	}
	return createToken(ctx, store, ws, demoTokenName)
}

// defaultPort is the port of FEEDBACK_ADDR, or 8080.
func defaultPort(getenv func(string) string) string {
	if _, port, err := net.SplitHostPort(getenv("FEEDBACK_ADDR")); err == nil && port != "" {
		return port
	}
	return "8080"
}

// printDemo prints the token and every poster's visitor URL.
func (m *Main) printDemo(ctx context.Context, store server.Store, keys *secret.Keyring, ws *server.Workspace, token, base string) error {
	fmt.Fprintf(m.Stdout, "Demo workspace %q (%s)\n\nAPI token (shown once; the demo tokens printed before are revoked):\n  %s\n\n",
		ws.Name, ws.ID, token)
	fmt.Fprintf(m.Stdout, "Try:\n  curl -H 'Authorization: Bearer %s' %s/api/v1/hygiene\n\nVisitor forms:\n", token, base)
	locs, _, err := store.Locations(ctx, ws.ID, feedback.ListParams{Page: 1, PerPage: feedback.MaxPerPage})
	if err != nil {
		return err
	}
	for _, l := range locs {
		posters, _, err := store.Posters(ctx, ws.ID, l.ID, feedback.ListParams{Page: 1, PerPage: feedback.MaxPerPage})
		if err != nil {
			return err
		}
		for _, p := range posters {
			if p.Status != feedback.PosterActive {
				continue
			}
			code, err := workspace.PosterCode(keys, ws, p.ID)
			if err != nil {
				return err
			}
			fmt.Fprintf(m.Stdout, "  %-8s %-22s %s/q/%s\n", p.Form, l.Name, base, code)
		}
	}
	fmt.Fprintf(m.Stdout, "\nAPI reference: %s/api/v1/openapi.json\n", base)
	return nil
}

// demoEmail is the demo's dashboard account at the embedded provider.
const demoEmail = "admin@demo.example"

// demoAccount gives the demo account a new random password and prints
// how to sign in with it. (An external provider, when configured at
// serve, has its own accounts.)
func (m *Main) demoAccount(ctx context.Context, store server.Store, keys *secret.Keyring, base string) error {
	p, _, err := embeddedProvider(ctx, store, keys, base, slog.New(slog.NewTextHandler(m.Stderr, nil)))
	if err != nil {
		return err
	}
	if _, err := p.CreateAccount(ctx, demoEmail); err != nil {
		return err
	}
	password := secret.NewPassword()
	if err := p.SetPassword(ctx, demoEmail, password); err != nil {
		return err
	}
	fmt.Fprintf(m.Stdout, "\nDashboard: %s/w/%s/ (sign in with the embedded provider)\n  email:    %s\n  password: %s\n",
		base, demoSlug, demoEmail, password)
	return nil
}
