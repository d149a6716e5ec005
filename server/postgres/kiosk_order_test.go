package postgres_test

import (
	"context"
	"encoding/json"
	"testing"
	"time"

	"github.com/feedbackhq/feedback/server"
	"github.com/feedbackhq/feedback/server/internal/pgtest"
	"github.com/feedbackhq/feedback/server/postgres"
	"github.com/feedbackhq/feedback/shared/feedback"
)

// TestKioskEventsFollowCommits: a kiosk's events are numbered in the
// order in which their changes commit, when its location is deleted
// while it comes online. The deletion starts first and is held up (a
// row lock on its location, as a slow statement would hold it); the
// kiosk's first heartbeat runs meanwhile. However the two interleave,
// the kiosk ends offline, so its last presence event, if it has any,
// must say so. Before the deletion took the kiosk's lock first, it took
// its transaction id (numbering its events) before the heartbeat's, and
// its kiosk.offline came out before the heartbeat's kiosk.online.
func TestKioskEventsFollowCommits(t *testing.T) {
	pgtest.Check(t)
	ctx := context.Background()
	db := MustOpenDB(t, postgres.WithMaxConns(6))
	w := newWorkspace(t, db, "Order")
	loc := &feedback.Location{Name: "Lobby"}
	must(t, db.CreateLocation(ctx, w.ID, loc))
	code := &server.PairingCode{WorkspaceID: w.ID, Hash: []byte("code"), ExpiresAt: time.Now().Add(time.Hour),
		PairingCodeInput: feedback.PairingCodeInput{LocationID: loc.ID, FormRef: feedback.FormRef{Form: feedback.FormHygiene}}}
	must(t, db.CreatePairingCode(ctx, code))
	k := &server.Kiosk{CredentialHash: []byte("cred")}
	must(t, db.PairKiosk(ctx, code.Hash, k))

	hold, err := db.Pool().Begin(ctx)
	must(t, err)
	defer hold.Rollback(ctx)
	_, err = hold.Exec(ctx, `SELECT 1 FROM locations WHERE workspace_id = $1 AND id = $2 FOR UPDATE`, w.ID, loc.ID)
	must(t, err)
	deleted, beat := make(chan error, 1), make(chan error, 1)
	go func() { deleted <- db.DeleteLocation(ctx, w.ID, loc.ID) }()
	waitForLockWaits(t, db, 1, nil)
	go func() { beat <- db.KioskHeartbeat(ctx, w.ID, k.ID, feedback.Heartbeat{}) }()
	waitForLockWaits(t, db, 2, beat) // the heartbeat ends, or waits for the deletion
	must(t, hold.Commit(ctx))
	must(t, <-deleted)
	must(t, <-beat)

	events, err := db.Events(ctx, w.ID, 0, 100)
	must(t, err)
	var last string
	for _, e := range events {
		var p feedback.KioskPresence
		if (e.Type == feedback.EventKioskOnline || e.Type == feedback.EventKioskOffline) &&
			json.Unmarshal(e.Data, &p) == nil && p.KioskID == k.ID {
			last = e.Type
		}
	}
	got, err := db.KioskByCredential(ctx, []byte("cred"))
	must(t, err)
	if got.Online || (last != "" && last != feedback.EventKioskOffline) {
		t.Errorf("the kiosk ends online %v, its last presence event is %q: want offline", got.Online, last)
	}
}

// waitForLockWaits waits until n of the database's sessions wait for a
// lock, or done yields a value (which it puts back), for at most 10 s.
func waitForLockWaits(t *testing.T, db *postgres.DB, n int, done chan error) {
	t.Helper()
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(5 * time.Millisecond) {
		select {
		case err := <-done:
			done <- err
			return
		default:
		}
		var waiting int
		err := db.Pool().QueryRow(context.Background(), `SELECT COUNT(*) FROM pg_stat_activity
			WHERE datname = current_database() AND wait_event_type = 'Lock'`).Scan(&waiting)
		must(t, err)
		if waiting >= n {
			return
		}
	}
	t.Fatalf("after 10 s, fewer than %d sessions wait for a lock", n)
}
