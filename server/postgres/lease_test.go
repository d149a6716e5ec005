package postgres_test

import (
	"context"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/feedbackhq/feedback/server"
	"github.com/feedbackhq/feedback/server/internal/pgtest"
)

// TestLeasesHoldAcrossInstances hammers one budget from two instances on
// one database, 20 goroutines each: together they never allow more than
// the limit, and refuse at most one lease's worth short of it each.
func TestLeasesHoldAcrossInstances(t *testing.T) {
	pgtest.Check(t)
	url := pgtest.URL(t)
	now := time.Date(2026, 3, 27, 10, 0, 5, 0, time.UTC)
	a, b := open(t, url, &clock{now: now}), open(t, url, &clock{now: now})
	const limit, lease = 1000, 15 // leaseSize(1000)
	var allowed atomic.Int64
	var wg sync.WaitGroup
	for _, l := range []server.Limiter{a.Limiter(), b.Limiter()} {
		for range 20 {
			wg.Go(func() {
				for range 2 * limit / 40 {
					q, err := l.Take(context.Background(), "ws:one", limit, time.Minute)
					if err != nil {
						t.Error(err)
						return
					}
					if q.Allowed {
						allowed.Add(1)
					}
				}
			})
		}
	}
	wg.Wait()
	if got := allowed.Load(); got > limit || got < limit-2*(lease-1) {
		t.Errorf("%d requests allowed of a budget of %d, want at most the limit and at least %d", got, limit, limit-2*(lease-1))
	}
	q, err := a.Limiter().Take(context.Background(), "ws:one", limit, time.Minute)
	if err != nil || q.Allowed || q.Remaining != 0 {
		t.Errorf("a request after the spent budget: %+v, %v; want it refused", q, err)
	}
}

// TestLeaseKeepsRevocation checks that a token whose workspace holds a
// lease in one instance is refused there on the next request after
// another instance revoked it.
func TestLeaseKeepsRevocation(t *testing.T) {
	pgtest.Check(t)
	ctx := context.Background()
	url := pgtest.URL(t)
	now := time.Date(2026, 3, 27, 10, 0, 5, 0, time.UTC)
	a, b := open(t, url, &clock{now: now}), open(t, url, &clock{now: now})
	ws := newWorkspace(t, a, "Lease")
	tok := &server.Token{WorkspaceID: ws.ID, Name: "t", Prefix: "fbk_leas", Hash: []byte("hash-lease")}
	must(t, a.CreateToken(ctx, tok))
	for i := range 3 {
		got, q, err := a.TakeToken(ctx, tok.Hash, "ws:", 1000, time.Minute)
		if err != nil || got.RevokedAt != nil || !q.Allowed || q.Remaining != 1000-i-1 {
			t.Fatalf("take %d: %+v, %+v, %v; want the live token allowed with %d remaining", i+1, got, q, err, 1000-i-1)
		}
	}
	_, err := b.RevokeToken(ctx, ws.ID, tok.ID)
	must(t, err)
	got, q, err := a.TakeToken(ctx, tok.Hash, "ws:", 1000, time.Minute)
	if err != nil || got.RevokedAt == nil || q != (server.Quota{}) {
		t.Errorf("the next request after the revocation: %+v, %+v, %v; want it revoked", got, q, err)
	}
}
