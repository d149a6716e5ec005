package main

import (
	"context"
	"fmt"
	"log"
	"time"

	"github.com/feedbackhq/feedback/server"
	"github.com/feedbackhq/feedback/server/postgres"
	"github.com/feedbackhq/feedback/server/secret"
	"github.com/feedbackhq/feedback/server/workspace"
	"github.com/feedbackhq/feedback/shared/feedback"
)

// tenant is a workspace of the run: an API token for its sockets and
// the code of its hygiene poster for its submissions.
type tenant struct {
	id, token, code string
}

// provision migrates the database and makes n workspaces, each with a
// token, a location and a hygiene poster, through the store itself:
// a second, where a command per workspace would take a minute.
func provision(ctx context.Context, dsn, key string, n int) ([]tenant, error) {
	keys, err := secret.ParseKeyring(key)
	if err != nil {
		return nil, err
	}
	db, err := postgres.Open(ctx, dsn)
	if err != nil {
		return nil, err
	}
	defer db.Close()
	if err := db.Migrate(ctx); err != nil {
		return nil, err
	}
	start := time.Now()
	ts := make([]tenant, n)
	for i := range ts {
		if ts[i], err = provisionOne(ctx, db, keys, i); err != nil {
			return nil, fmt.Errorf("workspace %d: %w", i, err)
		}
	}
	log.Printf("made %d workspaces in %s", n, time.Since(start).Round(time.Millisecond))
	return ts, nil
}

// provisionOne makes the i-th workspace.
func provisionOne(ctx context.Context, db *postgres.DB, keys *secret.Keyring, i int) (tenant, error) {
	ws, err := workspace.Create(ctx, db, keys, fmt.Sprintf("Live %d", i), fmt.Sprintf("live-%d", i))
	if err != nil {
		return tenant{}, err
	}
	token, _, err := workspace.CreateToken(ctx, db, ws.ID, "livebench")
	if err != nil {
		return tenant{}, err
	}
	loc := &feedback.Location{Name: "Lobby"}
	if err := db.CreateLocation(ctx, ws.ID, loc); err != nil {
		return tenant{}, err
	}
	p := &server.Poster{WorkspaceID: ws.ID}
	p.LocationID, p.FormRef = loc.ID, feedback.FormRef{Form: feedback.FormHygiene}
	if err := db.CreatePoster(ctx, p); err != nil {
		return tenant{}, err
	}
	code, err := workspace.PosterCode(keys, ws, p.ID)
	return tenant{id: ws.ID, token: token, code: code}, err
}
