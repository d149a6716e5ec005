package main

import (
	"context"
	"log/slog"
	"sync"

	"github.com/feedbackhq/feedback/server"
	"github.com/feedbackhq/feedback/server/live"
	"github.com/feedbackhq/feedback/server/postgres"
)

// relayEvents makes the live hub hear the commits of the other instances
// on PostgreSQL: each local commit wakes the hub and notifies them, and
// their notifications wake it. On SQLite, one process owns the database
// and the store's own hook suffices. The returned function stops the
// relay and waits for it.
func relayEvents(ctx context.Context, store server.Store, hub *live.Hub, log *slog.Logger) func() {
	db, ok := store.(*postgres.DB)
	if !ok {
		return func() {}
	}
	relay := db.NewRelay(log)
	store.OnEvent(func(workspaceID string, seq int64) {
		hub.Wake(workspaceID)
		relay.Notify(workspaceID, seq)
	})
	ctx, cancel := context.WithCancel(ctx)
	var wg sync.WaitGroup
	wg.Go(func() { relay.Run(ctx, func(ws string, _ int64) { hub.Wake(ws) }, hub.WakeAll) })
	return func() { cancel(); wg.Wait() }
}
