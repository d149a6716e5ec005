package storetest

import (
	"testing"
	"time"

	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/feedbackhq/feedback/server"
	"github.com/feedbackhq/feedback/shared/feedback"
)

func testIdPSigningKeys(t *testing.T, f *fixture) {
	_, err := f.s.NewestIdPSigningKey(f.ctx())
	wantCode(t, err, feedback.ENotFound)
	keys := []*server.IdPSigningKey{
		{Generation: 1, KID: "k1", Algorithm: "ES256", PublicKey: []byte("pub1"), PrivateKey: []byte("sealed1"), CreatedAt: f.clock.Now()},
		{Generation: 2, KID: "k2", Algorithm: "ES256", PublicKey: []byte("pub2"), PrivateKey: []byte("sealed2"), CreatedAt: f.clock.Now().Add(time.Hour)},
	}
	for _, k := range keys {
		f.must(f.s.CreateIdPSigningKey(f.ctx(), k))
	}
	got, err := f.s.NewestIdPSigningKey(f.ctx())
	f.must(err)
	wantEqual(t, "the newest key", keys[1], got)
	for name, k := range map[string]*server.IdPSigningKey{
		"generation taken": {Generation: 2, KID: "k3", Algorithm: "ES256", PublicKey: []byte("p"), PrivateKey: []byte("s"), CreatedAt: f.clock.Now()},
		"kid taken":        {Generation: 3, KID: "k1", Algorithm: "ES256", PublicKey: []byte("p"), PrivateKey: []byte("s"), CreatedAt: f.clock.Now()},
	} {
		if err := f.s.CreateIdPSigningKey(f.ctx(), k); feedback.ErrorCode(err) != feedback.EConflict {
			t.Errorf("%s: %v, want EConflict", name, err)
		}
	}
	list, err := f.s.IdPSigningKeys(f.ctx())
	f.must(err)
	want := []server.IdPSigningKey{*keys[1], *keys[0]}
	want[0].PrivateKey, want[1].PrivateKey = nil, nil
	wantEqual(t, "the keys", want, list)
}

// throttle returns the row of key as a reservation sees it, without
// counting anything.
func (f *fixture) throttle(key string) server.Throttle {
	f.t.Helper()
	var got server.Throttle
	err := f.s.ReserveIdPAttempt(f.ctx(), []string{key}, f.clock.Now(), func(_ string, t server.Throttle) (server.Throttle, bool) {
		got = t
		return t, false
	})
	wantCode(f.t, err, feedback.ERateLimited)
	return got
}

// upTo counts an attempt as a failure, refusing a key at limit failures.
func upTo(limit int) server.CountAttempt {
	return func(_ string, t server.Throttle) (server.Throttle, bool) {
		if t.Failures >= limit {
			return t, false
		}
		t.Failures++
		return t, true
	}
}

func testIdPReserve(t *testing.T, f *fixture) {
	now := f.clock.stored()
	wantEqual(t, "a new key", server.Throttle{LastFailureAt: now, QuietAfter: now}, f.throttle("email:a"))
	lock, quiet := now.Add(15*time.Minute), now.Add(30*time.Minute)
	var seen []string
	f.must(f.s.ReserveIdPAttempt(f.ctx(), []string{"email:a", "ip:b"}, f.clock.Now(), func(k string, t server.Throttle) (server.Throttle, bool) {
		seen = append(seen, k)
		return server.Throttle{Failures: t.Failures + 1, LastFailureAt: now, LockedUntil: &lock, QuietAfter: quiet}, true
	}))
	wantEqual(t, "the keys counted, in order", []string{"email:a", "ip:b"}, seen)
	want := server.Throttle{Failures: 1, LastFailureAt: now, LockedUntil: &lock, QuietAfter: quiet}
	wantEqual(t, "a counted key", want, f.throttle("email:a"))

	// One refusing key: every key is seen, none is stored.
	seen = nil
	err := f.s.ReserveIdPAttempt(f.ctx(), []string{"email:c", "ip:b", "email:d"}, f.clock.Now(), func(k string, t server.Throttle) (server.Throttle, bool) {
		seen = append(seen, k)
		t.Failures++
		return t, k != "ip:b"
	})
	wantCode(t, err, feedback.ERateLimited)
	wantEqual(t, "the keys seen by a refused reservation", []string{"email:c", "ip:b", "email:d"}, seen)
	wantEqual(t, "a key before the refusal", server.Throttle{LastFailureAt: now, QuietAfter: now}, f.throttle("email:c"))
	wantEqual(t, "the refusing key", want, f.throttle("ip:b"))
}

// testIdPReserveConcurrent makes 40 reservations at once on an address
// that allows 5 and a client that allows 100: exactly 5 are counted, on
// both keys.
func testIdPReserveConcurrent(t *testing.T, f *fixture) {
	const n, limit = 40, 5
	count := func(k string, t server.Throttle) (server.Throttle, bool) {
		if k == "email:a" {
			return upTo(limit)(k, t)
		}
		return upTo(100)(k, t)
	}
	codes := concurrently(t, n, func(int) error {
		return f.s.ReserveIdPAttempt(f.ctx(), []string{"email:a", "ip:b"}, f.clock.Now(), count)
	}, feedback.ERateLimited)
	wantEqual(t, "the outcomes of concurrent reservations", map[string]int{"": limit, feedback.ERateLimited: n - limit}, codes)
	for _, k := range []string{"email:a", "ip:b"} {
		if got := f.throttle(k).Failures; got != limit {
			t.Errorf("%s counts %d failures, want %d", k, got, limit)
		}
	}
}

func testIdPRefund(t *testing.T, f *fixture) {
	now := f.clock.stored()
	lock, other, quiet := now.Add(time.Hour), now.Add(2*time.Hour), now.Add(3*time.Hour)
	set := func(key string, th server.Throttle) {
		f.must(f.s.ReserveIdPAttempt(f.ctx(), []string{key}, f.clock.Now(), func(string, server.Throttle) (server.Throttle, bool) {
			return th, true
		}))
	}
	set("locked", server.Throttle{Failures: 5, LastFailureAt: now, LockedUntil: &lock, QuietAfter: lock})
	set("relocked", server.Throttle{Failures: 6, LastFailureAt: now, LockedUntil: &other, QuietAfter: other})
	set("zero", server.Throttle{LastFailureAt: now, QuietAfter: now})
	set("forgotten", server.Throttle{Failures: 3, LastFailureAt: now, QuietAfter: now})
	f.must(f.s.RefundIdPAttempt(f.ctx(), []server.IdPRefund{
		{Key: "locked", Lock: lock, QuietAfter: quiet},
		{Key: "relocked", Lock: lock, QuietAfter: quiet},
		{Key: "zero", QuietAfter: quiet},
		{Key: "forgotten", Forget: true},
		{Key: "unknown", QuietAfter: quiet},
	}))
	f.clock.Add(time.Minute)
	later := f.clock.stored()
	for key, want := range map[string]server.Throttle{
		"locked":    {Failures: 4, LastFailureAt: now, QuietAfter: quiet},
		"relocked":  {Failures: 5, LastFailureAt: now, LockedUntil: &other, QuietAfter: other},
		"zero":      {LastFailureAt: now, QuietAfter: now},
		"forgotten": {LastFailureAt: later, QuietAfter: later},
		"unknown":   {LastFailureAt: later, QuietAfter: later},
	} {
		wantEqual(t, "refunded "+key, want, f.throttle(key))
	}
}

func testIdPPurge(t *testing.T, f *fixture) {
	ann := f.idpAccount("ann@example.com")
	now := f.clock.Now()
	f.completeIdPSignIn("s1", ann.ID) // 30 minutes
	f.makeIdPTokens(ann.ID, "s1")     // access 15 minutes, refresh 30 days
	_, err := f.s.CreateIdPPasswordLink(f.ctx(), "bob@example.com", []byte("link"), now, now.Add(time.Hour))
	f.must(err)
	f.must(f.s.ReserveIdPAttempt(f.ctx(), []string{"email:a"}, now, func(_ string, t server.Throttle) (server.Throttle, bool) {
		t.QuietAfter = now.Add(time.Hour)
		return t, true
	}))
	fed := f.idpFederation("Acme", "oidc", "example.com")
	f.must(f.s.AddIdPSAMLAssertion(f.ctx(), fed.ID, "a1", now.Add(time.Hour)))
	for g, at := range []time.Time{now, now.Add(24 * time.Hour)} {
		f.must(f.s.CreateIdPSigningKey(f.ctx(), &server.IdPSigningKey{Generation: g + 1, KID: string(rune('a' + g)),
			Algorithm: "ES256", PublicKey: []byte("p"), PrivateKey: []byte("s"), CreatedAt: at}))
	}

	f.must(f.s.PurgeIdP(f.ctx(), now.Add(30*time.Minute), now.Add(24*time.Hour-time.Microsecond)))
	_, err = f.s.IdPAuthRequest(f.ctx(), "s1", now)
	wantCode(t, err, feedback.ENotFound)
	if _, err := f.s.IdPAccessToken(f.ctx(), "a-s1", now); feedback.ErrorCode(err) != feedback.ENotFound {
		t.Errorf("an expired access token after the purge: %v", err)
	}
	if _, err := f.s.IdPRefreshToken(f.ctx(), []byte("h-s1")); err != nil {
		t.Errorf("a live refresh token after the purge: %v", err)
	}
	if _, err := f.s.IdPPasswordLink(f.ctx(), []byte("link"), now); err != nil {
		t.Errorf("a live link after the purge: %v", err)
	}
	if keys, err := f.s.IdPSigningKeys(f.ctx()); err != nil || len(keys) != 2 {
		t.Errorf("keys before their successor's time: %d, %v; want 2", len(keys), err)
	}
	wantCode(t, f.s.AddIdPSAMLAssertion(f.ctx(), fed.ID, "a1", now.Add(time.Hour)), feedback.EConflict)

	f.must(f.s.PurgeIdP(f.ctx(), now.Add(30*24*time.Hour), now.Add(24*time.Hour)))
	f.wantIdPTokens(ann.ID, "s1", 0, "after the refresh token expired")
	_, err = f.s.IdPPasswordLink(f.ctx(), []byte("link"), now)
	wantCode(t, err, feedback.ENotFound)
	wantEqual(t, "a purged throttle key", server.Throttle{LastFailureAt: f.clock.stored(), QuietAfter: f.clock.stored()},
		f.throttle("email:a"))
	f.must(f.s.AddIdPSAMLAssertion(f.ctx(), fed.ID, "a1", now.Add(time.Hour))) // purged: recorded anew
	keys, err := f.s.IdPSigningKeys(f.ctx())
	f.must(err)
	wantEqual(t, "the keys left", []int{2}, generations(keys), cmpopts.EquateEmpty())
}

func generations(keys []server.IdPSigningKey) []int {
	var g []int
	for _, k := range keys {
		g = append(g, k.Generation)
	}
	return g
}
