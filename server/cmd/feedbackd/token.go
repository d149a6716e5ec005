package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"strings"

	"github.com/feedbackhq/feedback/server"
	"github.com/feedbackhq/feedback/server/secret"
	"github.com/feedbackhq/feedback/shared/feedback"
)

const tokenUsage = `usage:
  feedbackd token create --workspace ID --name NAME
  feedbackd token list --workspace ID
  feedbackd token revoke --workspace ID TOKEN_ID`

// token handles "feedbackd token create|list|revoke".
func (m *Main) token(ctx context.Context, args []string) error {
	if len(args) == 0 {
		return errors.New(tokenUsage)
	}
	var d dbFlags
	var ws, name string
	fs := m.newFlags("token " + args[0])
	d.register(fs, m.Getenv)
	fs.StringVar(&ws, "workspace", "", "workspace id (required)")
	if args[0] == "create" {
		fs.StringVar(&name, "name", "", "token name (required)")
	}
	if err := fs.Parse(args[1:]); err != nil {
		return err
	}
	if _, ok := feedback.ParseUUID(ws); !ok {
		return errors.New("--workspace must be a workspace id (a UUID)")
	}
	switch args[0] {
	case "create":
		return m.tokenCreate(ctx, d, ws, name, fs)
	case "list":
		return m.withStore(ctx, d, func(store server.Store, _ *secret.Keyring) error {
			tokens, err := store.Tokens(ctx, ws)
			if err == nil {
				m.printTokens(tokens)
			}
			return err
		})
	case "revoke":
		return m.tokenRevoke(ctx, d, ws, fs)
	}
	return errors.New(tokenUsage)
}

func (m *Main) tokenCreate(ctx context.Context, d dbFlags, ws, name string, fs *flag.FlagSet) error {
	if strings.TrimSpace(name) == "" || fs.NArg() > 0 {
		return errors.New("token create: --name is required and no arguments are taken")
	}
	return m.withStore(ctx, d, func(store server.Store, _ *secret.Keyring) error {
		if _, err := store.Workspace(ctx, ws); err != nil {
			return fmt.Errorf("workspace %s: %w", ws, err)
		}
		value, err := createToken(ctx, store, ws, strings.TrimSpace(name))
		if err == nil {
			fmt.Fprintln(m.Stdout, value)
		}
		return err
	})
}

func (m *Main) tokenRevoke(ctx context.Context, d dbFlags, ws string, fs *flag.FlagSet) error {
	if fs.NArg() != 1 {
		return errors.New("token revoke: give exactly one TOKEN_ID")
	}
	id, ok := feedback.ParseUUID(fs.Arg(0))
	if !ok {
		return errors.New("token revoke: TOKEN_ID must be a UUID")
	}
	return m.withStore(ctx, d, func(store server.Store, _ *secret.Keyring) error {
		t, err := store.RevokeToken(ctx, ws, id)
		if err != nil {
			return fmt.Errorf("token %s: %w", id, err)
		}
		fmt.Fprintf(m.Stderr, "token %s (%s) revoked at %s\n", t.ID, t.Name, timeOrDash(t.RevokedAt))
		return nil
	})
}
