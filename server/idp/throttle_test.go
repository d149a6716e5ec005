package idp_test

import (
	"fmt"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"
)

// wantThrottled checks that a sign-in attempt is refused with 429.
func wantThrottled(t *testing.T, p page, retryAfter string) {
	t.Helper()
	if p.status != http.StatusTooManyRequests || !strings.Contains(p.body, "Too many attempts") ||
		!strings.Contains(p.body, "Wait "+retryAfter) {
		t.Errorf("got %d %s, want 429 asking to wait %s", p.status, p.body, retryAfter)
	}
}

func TestThrottlePerAccount(t *testing.T) {
	eachStore(t, func(t *testing.T, db *database) {
		e := newEnv(t, db, 1)
		e.account(email, password)
		r := e.rp()
		f := e.start(r)
		for i := range 5 {
			if p := f.password(email, fmt.Sprintf("wrong password %d", i)); p.status != http.StatusUnauthorized {
				t.Fatalf("failure %d: %d", i+1, p.status)
			}
		}
		wantThrottled(t, f.password(email, password), "15 minutes")
		wantThrottled(t, e.start(r).password("ANN@EXAMPLE.COM", password), "15 minutes")
		if p := e.start(r).password("bob@example.com", password); p.status != http.StatusUnauthorized {
			t.Errorf("another address: %d, want 401: it is not locked", p.status)
		}
	})
}

func TestThrottleRecovers(t *testing.T) {
	eachStore(t, func(t *testing.T, db *database) {
		e := newEnv(t, db, 1)
		e.account(email, password)
		r := e.rp()
		f := e.start(r)
		for i := range 5 {
			f.password(email, fmt.Sprintf("wrong password %d", i))
		}
		e.clock.Add(14 * time.Minute)
		wantThrottled(t, e.start(r).password(email, password), "1 minute")

		e.clock.Add(time.Minute + time.Second) // the lock is over; the count is not
		if p := e.start(r).password(email, "wrong again"); p.status != http.StatusUnauthorized {
			t.Fatalf("the attempt after the lock: %d %s", p.status, p.body)
		}
		wantThrottled(t, e.start(r).password(email, password), "30 minutes") // twice as long

		e.clock.Add(30 * time.Minute)
		if s := e.signIn(r, email, password); !slices.Equal(s.claims.AMR, []string{"pwd"}) {
			t.Errorf("after the window: amr %v", s.claims.AMR)
		}
		for i := range 4 { // a success forgets the failures
			e.start(r).password(email, fmt.Sprintf("wrong password %d", i))
		}
		e.signIn(r, email, password)
	})
}

func TestThrottlePerClient(t *testing.T) {
	eachStore(t, func(t *testing.T, db *database) {
		e := newEnv(t, db, 1)
		e.account(email, password)
		r := e.rp()
		f := e.start(r)
		for i := range 20 { // four tries at each of five addresses: none is locked, the client is
			if p := f.password(fmt.Sprintf("user%d@example.com", i%5), "wrong password"); p.status != http.StatusUnauthorized {
				t.Fatalf("failure %d: %d", i+1, p.status)
			}
		}
		wantThrottled(t, e.start(r).password(email, password), "15 minutes")
	})
}
