package postgres_test

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/feedbackhq/feedback/server/internal/pgtest"
	"github.com/feedbackhq/feedback/shared/feedback"
)

// TestSharedSettle: readers that share a wait for the transactions in
// flight still each see every event committed before they asked. An
// event commits behind an older transaction that is still open (so it
// is above the events' horizon); twenty readers ask at once, the old
// transaction ends 200 ms later, and every reader's position covers the
// event.
func TestSharedSettle(t *testing.T) {
	pgtest.Check(t)
	ctx := context.Background()
	db := MustOpenDB(t)
	w := newWorkspace(t, db, "Settle")
	r := &feedback.Review{Title: "Lobby"}
	if err := db.CreateReview(ctx, w.ID, r); err != nil {
		t.Fatal(err)
	}

	old, err := db.Pool().Begin(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := old.Exec(ctx, `SELECT txid_current()`); err != nil { // it takes its id now
		t.Fatal(err)
	}
	active := feedback.StatusActive
	if _, err := db.UpdateReview(ctx, w.ID, r.ID, feedback.ReviewInput{Status: &active}); err != nil {
		t.Fatal(err)
	}

	positions := make([]int64, 20)
	var wg sync.WaitGroup
	for i := range positions {
		wg.Go(func() {
			pos, err := db.EventPosition(ctx, w.ID)
			if err != nil {
				t.Error(err)
			}
			positions[i] = pos
		})
	}
	time.Sleep(200 * time.Millisecond)
	if err := old.Commit(ctx); err != nil {
		t.Fatal(err)
	}
	wg.Wait()

	evs, err := db.Events(ctx, w.ID, 0, 10)
	if err != nil || len(evs) != 1 {
		t.Fatalf("events %+v, %v; want the status change", evs, err)
	}
	for i, p := range positions {
		if p < evs[0].Seq {
			t.Errorf("reader %d: position %d, below the event committed before it asked (%d)", i, p, evs[0].Seq)
		}
	}
}
