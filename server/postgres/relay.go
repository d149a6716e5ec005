package postgres

import (
	"context"
	"log/slog"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/jackc/pgx/v5"
)

// relayChannel is the channel on which instances tell each other that a
// workspace has new events.
const relayChannel = "feedback_events"

// Relay tells the other instances on the database which workspaces have
// new events, and hears what they tell: a NOTIFY after the local commits
// (coalesced: one statement, at most every notifyGap, carries every
// workspace that committed since the last one) and a LISTEN on a dedicated connection that
// reconnects. A notification carries only "workspace:seq". Run it with
// Run; Notify before or without Run drops nothing that matters: readers
// also poll.
type Relay struct {
	db  *DB
	log *slog.Logger

	mu      sync.Mutex
	pending map[string]int64
	kick    chan struct{}
}

// NewRelay returns a relay on db's database.
func (db *DB) NewRelay(log *slog.Logger) *Relay {
	return &Relay{db: db, log: log, pending: map[string]int64{}, kick: make(chan struct{}, 1)}
}

// Notify queues a notification that the workspace has events up to seq.
// It never blocks.
func (r *Relay) Notify(workspaceID string, seq int64) {
	r.mu.Lock()
	r.pending[workspaceID] = max(r.pending[workspaceID], seq)
	r.mu.Unlock()
	select {
	case r.kick <- struct{}{}:
	default:
	}
}

// Run sends the queued notifications and listens until ctx ends: wake
// is called for each notification heard (this instance's own too), all
// after each (re)connection of the listener, when notifications may have
// been missed.
func (r *Relay) Run(ctx context.Context, wake func(workspaceID string, seq int64), all func()) {
	var wg sync.WaitGroup
	wg.Go(func() { r.send(ctx) })
	wg.Go(func() { r.listen(ctx, wake, all) })
	wg.Wait()
}

// notifyGap is the least time between two NOTIFY statements of an
// instance. A notifying commit takes a lock that every other notifying
// commit waits for, and a statement per ingest commit took a fifth of
// ingest's throughput; one every 10 ms carries every workspace that
// committed meanwhile and delays the other instances by at most that.
const notifyGap = 10 * time.Millisecond

// send sends what Notify queued, one statement at a time, at most one
// per notifyGap.
func (r *Relay) send(ctx context.Context) {
	for {
		select {
		case <-ctx.Done():
			return
		case <-r.kick:
		}
		next := time.Now().Add(notifyGap)
		r.mu.Lock()
		payloads := make([]string, 0, len(r.pending))
		for ws, seq := range r.pending {
			payloads = append(payloads, ws+":"+strconv.FormatInt(seq, 10))
		}
		clear(r.pending)
		r.mu.Unlock()
		_, err := r.db.pool.Exec(ctx, `SELECT pg_notify($1, p) FROM unnest($2::text[]) AS p`, relayChannel, payloads)
		if err != nil && ctx.Err() == nil {
			r.log.Warn("relay: notify", "err", err) // the other instances' polls cover it
		}
		select {
		case <-ctx.Done():
			return
		case <-time.After(time.Until(next)):
		}
	}
}

// listen holds a connection that LISTENs, reconnecting with a growing
// pause after a failure.
func (r *Relay) listen(ctx context.Context, wake func(string, int64), all func()) {
	pause := 100 * time.Millisecond
	for ctx.Err() == nil {
		err := r.listenOnce(ctx, wake, all)
		if ctx.Err() != nil {
			return
		}
		r.log.Warn("relay: listen", "err", err, "retry_in", pause)
		select {
		case <-ctx.Done():
			return
		case <-time.After(pause):
		}
		pause = min(2*pause, 5*time.Second)
	}
}

// listenOnce connects, listens and calls wake until the connection
// fails or ctx ends.
func (r *Relay) listenOnce(ctx context.Context, wake func(string, int64), all func()) error {
	conn, err := pgx.ConnectConfig(ctx, r.db.pool.Config().ConnConfig.Copy())
	if err != nil {
		return err
	}
	defer conn.Close(context.WithoutCancel(ctx))
	if _, err := conn.Exec(ctx, "LISTEN "+relayChannel); err != nil {
		return err
	}
	all() // what was committed while nobody listened
	for {
		n, err := conn.WaitForNotification(ctx)
		if err != nil {
			return err
		}
		ws, seqText, ok := strings.Cut(n.Payload, ":")
		seq, err := strconv.ParseInt(seqText, 10, 64)
		if ok && err == nil {
			wake(ws, seq)
		}
	}
}
