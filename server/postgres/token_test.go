package postgres_test

import (
	"context"
	"testing"
	"time"

	"github.com/feedbackhq/feedback/server"
	"github.com/feedbackhq/feedback/server/internal/pgtest"
	"github.com/feedbackhq/feedback/shared/feedback"
)

// TestTakeToken checks the one-statement lookup of a token with its
// workspace's rate limit: a live token counts in its workspace's window,
// a revoked one is returned uncounted, an unknown hash is not found.
func TestTakeToken(t *testing.T) {
	pgtest.Check(t)
	ctx := context.Background()
	now := time.Date(2026, 3, 27, 10, 0, 30, 0, time.UTC)
	db := MustOpenDB(t)
	db.Now = func() time.Time { return now }
	ws := newWorkspace(t, db, "Take")
	tok := &server.Token{WorkspaceID: ws.ID, Name: "t", Prefix: "fbk_take", Hash: []byte("hash-take")}
	must(t, db.CreateToken(ctx, tok))
	for i := 1; i <= 3; i++ {
		got, q, err := db.TakeToken(ctx, tok.Hash, "ws:", 2, time.Minute)
		must(t, err)
		want := server.Quota{Allowed: i <= 2, Limit: 2, Remaining: max(2-i, 0), Reset: now.Add(30 * time.Second)}
		if got.ID != tok.ID || q != want {
			t.Errorf("take %d: token %s, quota %+v; want %s, %+v", i, got.ID, q, tok.ID, want)
		}
	}
	q, err := db.Limiter().Take(ctx, "ws:"+ws.ID, 2, time.Minute)
	must(t, err)
	if q.Remaining != 0 || q.Allowed {
		t.Errorf("the limiter's count after three takes: %+v, want the fourth request refused", q)
	}
	_, err = db.RevokeToken(ctx, ws.ID, tok.ID)
	must(t, err)
	got, q, err := db.TakeToken(ctx, tok.Hash, "ws:", 2, time.Minute)
	if err != nil || got.RevokedAt == nil || q != (server.Quota{}) {
		t.Errorf("a revoked token: %+v, %+v, %v; want it revoked, the zero quota, nil", got, q, err)
	}
	if _, _, err := db.TakeToken(ctx, []byte("unknown"), "ws:", 2, time.Minute); feedback.ErrorCode(err) != feedback.ENotFound {
		t.Errorf("an unknown hash: %v, want not found", err)
	}
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}
