package main

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/feedbackhq/feedback/server"
	"github.com/feedbackhq/feedback/server/secret"
	"github.com/feedbackhq/feedback/server/workspace"
	"github.com/feedbackhq/feedback/shared/feedback"
)

// migrate handles "feedbackd migrate".
func (m *Main) migrate(ctx context.Context, args []string) error {
	var d dbFlags
	fs := m.newFlags("migrate")
	d.register(fs, m.Getenv)
	if err := fs.Parse(args); err != nil {
		return err
	}
	store, err := d.open(ctx)
	if err != nil {
		return err
	}
	fmt.Fprintln(m.Stderr, "migrations applied to", redactDB(d.db))
	return store.Close()
}

// workspace handles "feedbackd workspace create --name NAME [--slug SLUG]".
func (m *Main) workspace(ctx context.Context, args []string) error {
	if len(args) == 0 || args[0] != "create" {
		return errors.New("usage: feedbackd workspace create --name NAME [--slug SLUG]")
	}
	var d dbFlags
	var name, slug string
	fs := m.newFlags("workspace create")
	d.register(fs, m.Getenv)
	fs.StringVar(&name, "name", "", "workspace name (required)")
	fs.StringVar(&slug, "slug", "", "URL slug (default: made from the name)")
	if err := fs.Parse(args[1:]); err != nil {
		return err
	}
	if strings.TrimSpace(name) == "" {
		return errors.New("workspace create: --name is required")
	}
	return m.withStore(ctx, d, func(store server.Store, keys *secret.Keyring) error {
		ws, err := createWorkspace(ctx, store, keys, name, slug)
		if err != nil {
			return err
		}
		fmt.Fprintln(m.Stdout, ws.ID)
		return nil
	})
}

// withStore opens the keyring and the store, runs fn and closes the store.
func (m *Main) withStore(ctx context.Context, d dbFlags, fn func(server.Store, *secret.Keyring) error) error {
	keys, err := d.keyring()
	if err != nil {
		return err
	}
	store, err := d.open(ctx)
	if err != nil {
		return err
	}
	defer store.Close()
	return fn(store, keys)
}

// createWorkspace stores a workspace, making the slug from the name when
// none is given.
func createWorkspace(ctx context.Context, store server.Store, keys *secret.Keyring, name, slug string) (*server.Workspace, error) {
	return workspace.CreateFrom(ctx, store, keys, feedback.WorkspaceInput{Name: name, Slug: slug})
}

// createToken stores a new API token and returns its value.
func createToken(ctx context.Context, store server.Store, workspaceID, name string) (string, error) {
	value, _, err := workspace.CreateToken(ctx, store, workspaceID, name)
	return value, err
}

// printTokens writes a table of tokens.
func (m *Main) printTokens(tokens []server.Token) {
	tw := tabwriter.NewWriter(m.Stdout, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "ID\tNAME\tPREFIX\tCREATED\tLAST USED\tREVOKED")
	for _, t := range tokens {
		fmt.Fprintf(tw, "%s\t%s\t%s…\t%s\t%s\t%s\n", t.ID, t.Name, t.Prefix,
			t.CreatedAt.Format(time.RFC3339), timeOrDash(t.LastUsedAt), timeOrDash(t.RevokedAt))
	}
	tw.Flush()
}

func timeOrDash(t *time.Time) string {
	if t == nil {
		return "-"
	}
	return t.UTC().Format(time.RFC3339)
}
