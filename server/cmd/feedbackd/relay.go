package main

import (
	"context"
	"log/slog"
	"sync"

	"github.com/feedbackhq/feedback/server"
	"github.com/feedbackhq/feedback/server/alerts"
	"github.com/feedbackhq/feedback/server/live"
	"github.com/feedbackhq/feedback/server/postgres"
)

// relayEvents makes the live hub and the alert worker hear the commits
// of the other instances on PostgreSQL: each local commit notifies them
// (the store's hooks wake this instance's hub and worker), and their
// notifications wake both. On SQLite, one process owns the database and
// the store's own hooks suffice. The returned function stops the relay
// and waits for it.
func relayEvents(ctx context.Context, store server.Store, hub *live.Hub, worker *alerts.Worker, log *slog.Logger) func() {
	db, ok := store.(*postgres.DB)
	if !ok {
		return func() {}
	}
	relay := db.NewRelay(log)
	store.OnEvent(relay.Notify)
	ctx, cancel := context.WithCancel(ctx)
	var wg sync.WaitGroup
	wg.Go(func() { relay.Run(ctx, func(ws string, _ int64) { hub.Wake(ws); worker.Wake(ws) }, hub.WakeAll) })
	return func() { cancel(); wg.Wait() }
}
