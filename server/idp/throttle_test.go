package idp_test

import (
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
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

// burst posts the login forms of flows at once, each with the email and
// password that login gives its index, and returns the status of each
// answer. The post of index late (none when negative) waits until five
// others have been answered.
func burst(t *testing.T, flows []*flow, late int, login func(i int) (string, string)) []int {
	t.Helper()
	type post struct {
		c      *http.Client
		action string
		form   url.Values
	}
	posts := make([]post, len(flows))
	for i, f := range flows {
		email, password := login(i)
		action, v := formPost(t, f.last, map[string]string{"email": email, "password": password})
		posts[i] = post{f.browser, action, v}
	}
	statuses := make([]int, len(posts))
	var answered atomic.Int32
	fiveAnswered := make(chan struct{})
	var start, done sync.WaitGroup
	start.Add(1)
	for i, p := range posts {
		done.Go(func() {
			start.Wait()
			if i == late {
				<-fiveAnswered
			}
			resp, err := p.c.PostForm(p.action, p.form)
			if err != nil {
				t.Error(err)
			} else {
				resp.Body.Close()
				statuses[i] = resp.StatusCode
			}
			if answered.Add(1) == 5 {
				close(fiveAnswered)
			}
		})
	}
	start.Done()
	done.Wait()
	return statuses
}

// count returns how many of statuses are each status.
func count(statuses []int) map[int]int {
	n := map[int]int{}
	for _, s := range statuses {
		n[s]++
	}
	return n
}

// startFlows starts n sign-ins.
func (e *env) startFlows(r *rp, n int) []*flow {
	flows := make([]*flow, n)
	for i := range flows {
		flows[i] = e.start(r)
	}
	return flows
}

// TestThrottleConcurrent sends bursts of attempts at once, to two
// instances on one database: the limits hold on the number of passwords
// checked, not only on the failures recorded after the checks.
func TestThrottleConcurrent(t *testing.T) {
	eachStore(t, func(t *testing.T, db *database) {
		e := newEnv(t, db, 2)
		e.account(email, password)
		e.serving.Store(-1) // each request at the other instance
		r := e.rp()
		t.Run("OneAccount", func(t *testing.T) {
			const right = 39 // sent once five others are answered
			statuses := burst(t, e.startFlows(r, 40), right, func(i int) (string, string) {
				if i == right {
					return email, password
				}
				return email, fmt.Sprintf("wrong password %d", i)
			})
			got := count(statuses)
			if checked := got[http.StatusUnauthorized]; checked > 5 || got[http.StatusTooManyRequests] != 40-checked {
				t.Errorf("40 attempts at once on one account: %v; want at most 5 passwords checked (401), the rest 429", got)
			}
			if statuses[right] != http.StatusTooManyRequests {
				t.Errorf("the right password, sent past the limit inside the burst: %d, want 429", statuses[right])
			}
			wantThrottled(t, e.start(r).password(email, password), "15 minutes")
		})
		t.Run("OneAddress", func(t *testing.T) {
			got := count(burst(t, e.startFlows(r, 60), -1, func(i int) (string, string) {
				return fmt.Sprintf("user%d@example.com", i%20), "wrong password" // three tries per address
			}))
			if got[http.StatusUnauthorized] > 20 || got[http.StatusTooManyRequests] != 60-got[http.StatusUnauthorized] {
				t.Errorf("60 attempts at once from one address: %v; want at most 20 checked (401), the rest 429", got)
			}
		})
	})
}
