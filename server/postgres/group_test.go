package postgres_test

import (
	"context"
	"encoding/json"
	"testing"
	"time"

	"github.com/feedbackhq/feedback/server/internal/pgtest"
	"github.com/feedbackhq/feedback/server/postgres"
	"github.com/feedbackhq/feedback/server/sqlstore"
	"github.com/feedbackhq/feedback/shared/feedback"
)

// missingLocation is a location id that no workspace has, and that
// orders after every other: its addition comes last in a group.
const missingLocation = "ffffffff-ffff-7fff-bfff-ffffffffffff"

// TestAdditionsCommitInGroups: submissions that arrive while the store's
// groups are busy commit together, as one transaction whose events are
// numbered by their ordinals; a group that one of them breaks keeps
// nothing, and each of its members then gets its own answer. Two
// submissions held up by a row lock on their location fill the groups;
// the ones that arrive meanwhile queue.
func TestAdditionsCommitInGroups(t *testing.T) {
	pgtest.Check(t)
	ctx := context.Background()
	db := MustOpenDB(t, postgres.WithMaxConns(6))
	w := newWorkspace(t, db, "Groups")
	loc := &feedback.Location{Name: "Lobby"}
	must(t, db.CreateLocation(ctx, w.ID, loc))

	// A group that a missing location breaks: the others are still created.
	first := addWhileHeld(t, db, w.ID, loc.ID, 6, true)
	for i, r := range first {
		switch {
		case i == len(first)-1 && feedback.ErrorCode(r.err) != feedback.ENotFound:
			t.Errorf("the submission to a missing location: %v, want %s", r.err, feedback.ENotFound)
		case i < len(first)-1 && (r.err != nil || !r.created):
			t.Errorf("submission %d: created %v, %v; want created", i, r.created, r.err)
		}
	}
	// A group that commits: its events share one transaction.
	second := addWhileHeld(t, db, w.ID, loc.ID, 5, false)
	txs, ordinals := map[int64]bool{}, map[int64]bool{}
	seqs := eventSeqs(t, db, w.ID)
	for _, r := range second[2:] { // the two that held the groups ran alone
		if r.err != nil || !r.created {
			t.Fatalf("a queued submission: created %v, %v; want created", r.created, r.err)
		}
		seq := seqs[r.id]
		txs[seq/sqlstore.MaxTxEvents], ordinals[seq%sqlstore.MaxTxEvents] = true, true
	}
	if len(txs) != 1 || len(ordinals) != 5 {
		t.Errorf("the 5 queued submissions' events are in %d transactions with %d ordinals, want 1 and 5", len(txs), len(ordinals))
	}
	_, total, err := db.HygieneSubmissions(ctx, w.ID, feedback.ListParams{Page: 1, PerPage: 1})
	must(t, err)
	if want := 2 + 6 + 2 + 5; total != want || len(seqs) != want {
		t.Errorf("%d submissions and %d events stored, want %d of each", total, len(seqs), want)
	}
}

// added is the outcome of one addition.
type added struct {
	id      string
	created bool
	err     error
}

// addWhileHeld adds two submissions to location while its row is locked
// from outside, so that they hold the store's groups, then queued more
// (plus one to a missing location when broken) and releases the row. It
// returns the outcomes: the two, then the queued, in that order.
func addWhileHeld(t *testing.T, db *postgres.DB, workspaceID, location string, queued int, broken bool) []added {
	t.Helper()
	ctx := context.Background()
	hold, err := db.Pool().Begin(ctx)
	must(t, err)
	defer hold.Rollback(ctx)
	_, err = hold.Exec(ctx, `SELECT 1 FROM locations WHERE id = $1 FOR UPDATE`, location)
	must(t, err)
	locations := []string{location, location}
	for range queued {
		locations = append(locations, location)
	}
	if broken {
		locations = append(locations, missingLocation)
	}
	outcomes := make([]chan added, len(locations))
	for i, l := range locations {
		outcomes[i] = make(chan added, 1)
		go func() {
			h := &feedback.HygieneSubmission{ID: feedback.NewID(), LocationID: l, Rating: 4, Language: "en", Source: feedback.SourceQR,
				CapturedAt: feedback.NewTime(time.Now())}
			created, err := db.AddHygiene(ctx, workspaceID, h, []byte(h.ID))
			outcomes[i] <- added{h.ID, created, err}
		}()
		if i == 1 {
			waitForLockWaits(t, db, 2, nil)
		}
	}
	for deadline := time.Now().Add(10 * time.Second); db.WaitingAdditions() < len(locations)-2; time.Sleep(time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("after 10 s, %d additions wait for a group, want %d", db.WaitingAdditions(), len(locations)-2)
		}
	}
	must(t, hold.Commit(ctx))
	out := make([]added, len(locations))
	for i := range outcomes {
		out[i] = <-outcomes[i]
	}
	return out
}

// eventSeqs returns the seq of each hygiene_submission.created event of
// the workspace, by the submission's id.
func eventSeqs(t *testing.T, db *postgres.DB, workspaceID string) map[string]int64 {
	t.Helper()
	events, err := db.Events(context.Background(), workspaceID, 0, 1000)
	must(t, err)
	seqs := map[string]int64{}
	for _, e := range events {
		var h feedback.HygieneSubmission
		if e.Type == feedback.EventHygieneSubmissionCreated && json.Unmarshal(e.Data, &h) == nil {
			seqs[h.ID] = e.Seq
		}
	}
	return seqs
}
