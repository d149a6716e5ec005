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

	"github.com/feedbackhq/feedback/server/idp/internal/idptest"
)

// wantThrottled checks that a sign-in attempt is refused with 429.
func wantThrottled(t *testing.T, p idptest.Page, retryAfter string) {
	t.Helper()
	if p.Status != http.StatusTooManyRequests || !strings.Contains(p.Body, "Too many attempts") ||
		!strings.Contains(p.Body, "Wait "+retryAfter) {
		t.Errorf("got %d %s, want 429 asking to wait %s", p.Status, p.Body, retryAfter)
	}
}

func TestThrottlePerAccount(t *testing.T) {
	idptest.EachStore(t, func(t *testing.T, db *idptest.Database) {
		e := idptest.NewEnv(t, db, 1)
		e.Account(email, password)
		r := e.RP()
		f := e.Start(r)
		for i := range 5 {
			if p := f.Password(email, fmt.Sprintf("wrong password %d", i)); p.Status != http.StatusUnauthorized {
				t.Fatalf("failure %d: %d", i+1, p.Status)
			}
		}
		wantThrottled(t, f.Password(email, password), "15 minutes")
		wantThrottled(t, e.Start(r).Password("ANN@EXAMPLE.COM", password), "15 minutes")
		if p := e.Start(r).Password("bob@example.com", password); p.Status != http.StatusUnauthorized {
			t.Errorf("another address: %d, want 401: it is not locked", p.Status)
		}
	})
}

func TestThrottleRecovers(t *testing.T) {
	idptest.EachStore(t, func(t *testing.T, db *idptest.Database) {
		e := idptest.NewEnv(t, db, 1)
		e.Account(email, password)
		r := e.RP()
		f := e.Start(r)
		for i := range 5 {
			f.Password(email, fmt.Sprintf("wrong password %d", i))
		}
		e.Clock.Add(14 * time.Minute)
		wantThrottled(t, e.Start(r).Password(email, password), "1 minute")

		e.Clock.Add(time.Minute + time.Second) // the lock is over; the count is not
		if p := e.Start(r).Password(email, "wrong again"); p.Status != http.StatusUnauthorized {
			t.Fatalf("the attempt after the lock: %d %s", p.Status, p.Body)
		}
		wantThrottled(t, e.Start(r).Password(email, password), "30 minutes") // twice as long

		e.Clock.Add(30 * time.Minute)
		if s := e.SignIn(r, email, password); !slices.Equal(s.Claims.AMR, []string{"pwd"}) {
			t.Errorf("after the window: amr %v", s.Claims.AMR)
		}
		for i := range 4 { // a success forgets the failures
			e.Start(r).Password(email, fmt.Sprintf("wrong password %d", i))
		}
		e.SignIn(r, email, password)
	})
}

func TestThrottlePerClient(t *testing.T) {
	idptest.EachStore(t, func(t *testing.T, db *idptest.Database) {
		e := idptest.NewEnv(t, db, 1)
		e.Account(email, password)
		r := e.RP()
		f := e.Start(r)
		for i := range 20 { // four tries at each of five addresses: none is locked, the client is
			if p := f.Password(fmt.Sprintf("user%d@example.com", i%5), "wrong password"); p.Status != http.StatusUnauthorized {
				t.Fatalf("failure %d: %d", i+1, p.Status)
			}
		}
		wantThrottled(t, e.Start(r).Password(email, password), "15 minutes")
	})
}

// burst posts the login forms of flows at once, each with the email and
// password that login gives its index, and returns the status of each
// answer. The post of index late (none when negative) waits until five
// others have been answered.
func burst(t *testing.T, flows []*idptest.Flow, late int, login func(i int) (string, string)) []int {
	t.Helper()
	type post struct {
		c      *http.Client
		action string
		form   url.Values
	}
	posts := make([]post, len(flows))
	for i, f := range flows {
		email, password := login(i)
		action, v := idptest.FormPost(t, f.Last, map[string]string{"email": email, "password": password})
		posts[i] = post{f.Browser, action, v}
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
func startFlows(e *idptest.Env, r *idptest.RP, n int) []*idptest.Flow {
	flows := make([]*idptest.Flow, n)
	for i := range flows {
		flows[i] = e.Start(r)
	}
	return flows
}

// TestThrottleConcurrent sends bursts of attempts at once, to two
// instances on one database: the limits hold on the number of passwords
// checked, not only on the failures recorded after the checks.
func TestThrottleConcurrent(t *testing.T) {
	idptest.EachStore(t, func(t *testing.T, db *idptest.Database) {
		e := idptest.NewEnv(t, db, 2)
		e.Account(email, password)
		e.Serving.Store(-1) // each request at the other instance
		r := e.RP()
		t.Run("OneAccount", func(t *testing.T) {
			const right = 39 // sent once five others are answered
			statuses := burst(t, startFlows(e, r, 40), right, func(i int) (string, string) {
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
			wantThrottled(t, e.Start(r).Password(email, password), "15 minutes")
		})
		t.Run("OneAddress", func(t *testing.T) {
			got := count(burst(t, startFlows(e, r, 60), -1, func(i int) (string, string) {
				return fmt.Sprintf("user%d@example.com", i%20), "wrong password" // three tries per address
			}))
			if got[http.StatusUnauthorized] > 20 || got[http.StatusTooManyRequests] != 60-got[http.StatusUnauthorized] {
				t.Errorf("60 attempts at once from one address: %v; want at most 20 checked (401), the rest 429", got)
			}
		})
	})
}
