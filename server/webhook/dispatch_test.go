package webhook_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	standardwebhooks "github.com/standard-webhooks/standard-webhooks/libraries/go"

	"github.com/feedbackhq/feedback/server"
	"github.com/feedbackhq/feedback/server/internal/pgtest"
	"github.com/feedbackhq/feedback/server/postgres"
	"github.com/feedbackhq/feedback/server/secret"
	"github.com/feedbackhq/feedback/server/sqlite"
	"github.com/feedbackhq/feedback/server/webhook"
	"github.com/feedbackhq/feedback/shared/feedback"
)

// stores opens a fresh migrated store of each kind; the PostgreSQL one
// is skipped (or fails in CI) as pgtest decides.
var stores = map[string]func(t testing.TB) server.Store{
	"sqlite": func(t testing.TB) server.Store {
		path := filepath.Join(t.TempDir(), "feedback.db")
		db := openSQLite(t, path)
		if err := db.Migrate(t.Context()); err != nil {
			t.Fatal(err)
		}
		urls.Store(server.Store(db), "sqlite:"+path)
		return db
	},
	"postgres": func(t testing.TB) server.Store {
		url := pgtest.URL(t)
		s := openPostgres(t, url)
		urls.Store(s, url)
		return s
	},
}

// urls maps each store to its database: a PostgreSQL URL, or "sqlite:"
// and the file's path.
var urls sync.Map

func openSQLite(t testing.TB, path string) *sqlite.DB {
	db, err := sqlite.Open(context.Background(), path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}

// reopen opens a second store on s's database, as another instance or a
// restarted one would.
func reopen(t testing.TB, s server.Store) server.Store {
	u, ok := urls.Load(s)
	if !ok {
		t.Fatal("reopen: unknown store")
	}
	if path, ok := strings.CutPrefix(u.(string), "sqlite:"); ok {
		return openSQLite(t, path)
	}
	return openPostgres(t, u.(string))
}

func openPostgres(t testing.TB, url string) server.Store {
	db, err := postgres.Open(context.Background(), url)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}

// eachStore runs fn on both stores, in parallel.
func eachStore(t *testing.T, fn func(t *testing.T, s server.Store)) {
	for name, open := range stores {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			fn(t, open(t))
		})
	}
}

// receiver is an HTTP endpoint that answers with the codes of plan in
// turn (the last one for ever after) and records what it got.
type receiver struct {
	*httptest.Server
	mu       sync.Mutex
	plan     []func(w http.ResponseWriter)
	requests []received
}

type received struct {
	header http.Header
	body   []byte
}

func answer(code int) func(w http.ResponseWriter) {
	return func(w http.ResponseWriter) { w.WriteHeader(code) }
}

func newReceiver(t testing.TB, plan ...func(w http.ResponseWriter)) *receiver {
	rc := &receiver{plan: plan}
	rc.Server = httptest.NewServer(http.HandlerFunc(rc.serve))
	t.Cleanup(rc.Close)
	return rc
}

func (rc *receiver) serve(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	rc.mu.Lock()
	n := len(rc.requests)
	rc.requests = append(rc.requests, received{r.Header.Clone(), body})
	step := rc.plan[min(n, len(rc.plan)-1)]
	rc.mu.Unlock()
	step(w)
}

func (rc *receiver) got() []received {
	rc.mu.Lock()
	defer rc.mu.Unlock()
	return append([]received(nil), rc.requests...)
}

// setup is a workspace with a location and a subscription to "*" at url
// whose secret is whsec.
type setup struct {
	s     server.Store
	keys  *secret.Keyring
	ws    string
	loc   string
	sub   *server.Webhook
	whsec string
}

func newSetup(t testing.TB, s server.Store, url string) *setup {
	keys, err := secret.ParseKeyring(secret.NewKey())
	if err != nil {
		t.Fatal(err)
	}
	return newWorkspace(t, s, url, "acme", keys)
}

// newWorkspace is newSetup for a workspace named slug whose secret keys
// seals.
func newWorkspace(t testing.TB, s server.Store, url, slug string, keys *secret.Keyring) *setup {
	w := &server.Workspace{Workspace: feedback.Workspace{Name: slug, Slug: slug}, PosterKey: []byte("k")}
	must(t, s.CreateWorkspace(t.Context(), w))
	l := &feedback.Location{Name: "Lobby"}
	must(t, s.CreateLocation(t.Context(), w.ID, l))
	st := &setup{s: s, keys: keys, ws: w.ID, loc: l.ID, whsec: secret.NewWebhookSecret()}
	st.sub = &server.Webhook{WorkspaceID: w.ID}
	st.sub.ID, st.sub.URL, st.sub.Events = feedback.NewID(), url, []string{"*"}
	st.sub.SecretPrefix = st.whsec[:feedback.SecretPrefixLength]
	st.sub.Secret = keys.Seal([]byte(st.whsec), webhook.SecretAAD(w.ID, st.sub.ID))
	must(t, s.CreateWebhook(t.Context(), st.sub))
	return st
}

// submit adds a hygiene submission, whose event the subscription gets.
func (st *setup) submit(t testing.TB) string {
	h := &feedback.HygieneSubmission{ID: feedback.NewID(), Rating: 5, LocationID: st.loc, Tags: []string{},
		Language: "en", Source: feedback.SourceQR, CapturedAt: feedback.NewTime(time.Now())}
	_, err := st.s.AddHygiene(t.Context(), st.ws, h, []byte(h.ID))
	must(t, err)
	return h.ID
}

// dispatcher returns a dispatcher on st's store with a fast schedule,
// reaching loopback receivers, running until the test ends.
func (st *setup) dispatcher(t testing.TB, q webhook.Queue, schedule ...time.Duration) *webhook.Dispatcher {
	client := st.client()
	if schedule == nil {
		schedule = []time.Duration{10 * time.Millisecond, 10 * time.Millisecond, 10 * time.Millisecond}
	}
	d := &webhook.Dispatcher{Queue: q, Keys: st.keys, Client: client, Schedule: schedule,
		Poll: 20 * time.Millisecond} // the default lease, a minute: a loaded machine must not take it for a dead worker
	run(t, d)
	return d
}

// client reaches loopback receivers and gives up after half a second.
func (st *setup) client() *http.Client {
	client := webhook.NewClient(webhook.Policy{Allow: []netip.Prefix{netip.MustParsePrefix("127.0.0.0/8")}})
	client.Timeout = 500 * time.Millisecond
	return client
}

// waitFor polls the subscription's deliveries until ok holds or ten
// seconds pass, and returns the last ones read.
func (st *setup) waitFor(t *testing.T, what string, ok func([]feedback.WebhookDelivery) bool) []feedback.WebhookDelivery {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		d, _, err := st.s.Deliveries(t.Context(), st.ws, st.sub.ID, feedback.ListParams{Page: 1, PerPage: 100})
		must(t, err)
		if ok(d) {
			return d
		}
		if time.Now().After(deadline) {
			t.Fatalf("waiting for %s; deliveries are %s", what, show(d))
		}
		time.Sleep(20 * time.Millisecond)
	}
}

func show(v any) string {
	b, _ := json.MarshalIndent(v, "", "  ")
	return string(b)
}

func settled(d []feedback.WebhookDelivery) bool {
	for _, x := range d {
		if x.Status == feedback.DeliveryPending {
			return false
		}
	}
	return len(d) > 0
}

func must(t testing.TB, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

// verify checks a request with the official Standard Webhooks library.
func verify(t *testing.T, whsec string, r received) {
	t.Helper()
	wh, err := standardwebhooks.NewWebhook(whsec)
	must(t, err)
	if err := wh.Verify(r.body, r.header); err != nil {
		t.Errorf("the official library refuses the signature of %s: %v", r.header.Get("webhook-id"), err)
	}
}

func codes(a []feedback.DeliveryAttempt) []int {
	var c []int
	for _, x := range a {
		c = append(c, x.StatusCode)
	}
	return c
}

func TestDispatchRetriesUntilDelivered(t *testing.T) {
	eachStore(t, func(t *testing.T, s server.Store) {
		rc := newReceiver(t, answer(503), answer(500), answer(204))
		st := newSetup(t, s, rc.URL)
		d := st.dispatcher(t, s)
		id := st.submit(t)
		d.Wake()
		got := st.waitFor(t, "success", settled)
		if len(got) != 1 || got[0].Status != feedback.DeliverySucceeded || got[0].Attempts != 3 ||
			fmt.Sprint(codes(got[0].AttemptLog)) != "[503 500 204]" || got[0].DeliveredAt == nil {
			t.Fatalf("delivery %s", show(got))
		}
		reqs := rc.got()
		if len(reqs) != 3 {
			t.Fatalf("the receiver got %d requests, want 3", len(reqs))
		}
		var e feedback.Event
		must(t, json.Unmarshal(reqs[0].body, &e))
		var h feedback.HygieneSubmission
		must(t, json.Unmarshal(e.Data, &h))
		if e.Type != feedback.EventHygieneSubmissionCreated || h.ID != id || e.WorkspaceID != st.ws {
			t.Errorf("body %s, want the submission's event", reqs[0].body)
		}
		for _, r := range reqs {
			verify(t, st.whsec, r)
			if r.header.Get("webhook-id") != got[0].ID || string(r.body) != string(reqs[0].body) {
				t.Errorf("attempts differ: webhook-id %s (want %s), body %s", r.header.Get("webhook-id"), got[0].ID, r.body)
			}
		}
	})
}

func TestDispatchTimeoutIsRetried(t *testing.T) {
	eachStore(t, func(t *testing.T, s server.Store) {
		hang := func(w http.ResponseWriter) { time.Sleep(time.Second); w.WriteHeader(200) }
		rc := newReceiver(t, hang, answer(200))
		st := newSetup(t, s, rc.URL)
		st.dispatcher(t, s)
		st.submit(t)
		got := st.waitFor(t, "success", settled)[0]
		if got.Status != feedback.DeliverySucceeded || len(got.AttemptLog) != 2 || got.AttemptLog[0].StatusCode != 0 ||
			got.AttemptLog[0].NextAttemptAt == nil {
			t.Fatalf("delivery %s", show(got))
		}
		if e := got.AttemptLog[0].Error; len(e) < 9 || e[:9] != "timed out" {
			t.Errorf("the first attempt's error is %q, want a timeout", e)
		}
	})
}

func TestDispatchGoneDisables(t *testing.T) {
	eachStore(t, func(t *testing.T, s server.Store) {
		rc := newReceiver(t, answer(http.StatusGone))
		st := newSetup(t, s, rc.URL)
		st.dispatcher(t, s)
		st.submit(t)
		got := st.waitFor(t, "failure", settled)[0]
		if got.Status != feedback.DeliveryFailed || got.Attempts != 1 {
			t.Fatalf("delivery %s", show(got))
		}
		w, err := s.Webhook(t.Context(), st.ws, st.sub.ID)
		must(t, err)
		if w.DisabledAt == nil || w.DisabledReason == "" {
			t.Fatalf("after 410 the subscription is not disabled: %s", show(w))
		}
		events, err := s.Events(t.Context(), st.ws, 0, 100)
		must(t, err)
		if last := events[len(events)-1]; last.Type != feedback.EventWebhookDisabled {
			t.Errorf("the last event is %s, want webhook.disabled", last.Type)
		}
		st.submit(t) // waits, never sent while disabled
		time.Sleep(200 * time.Millisecond)
		if n := len(rc.got()); n != 1 {
			t.Errorf("a disabled subscription received %d requests in all, want 1", n)
		}
	})
}

func TestDispatchRefusalIsNotRetried(t *testing.T) {
	eachStore(t, func(t *testing.T, s server.Store) {
		rc := newReceiver(t, func(w http.ResponseWriter) {
			w.WriteHeader(http.StatusBadRequest)
			_, _ = io.WriteString(w, "unknown event")
		})
		st := newSetup(t, s, rc.URL)
		st.dispatcher(t, s)
		st.submit(t)
		got := st.waitFor(t, "failure", settled)[0]
		if got.Status != feedback.DeliveryFailed || got.Attempts != 1 || got.LastError != "answered 400: unknown event" {
			t.Fatalf("delivery %s", show(got))
		}
		w, err := s.Webhook(t.Context(), st.ws, st.sub.ID)
		must(t, err)
		if w.DisabledAt != nil {
			t.Errorf("a 400 disabled the subscription")
		}
		// Fixed on the receiver's side: redeliver by hand.
		rc.mu.Lock()
		rc.plan = []func(http.ResponseWriter){answer(200)}
		rc.mu.Unlock()
		_, err = s.Redeliver(t.Context(), st.ws, st.sub.ID, got.ID)
		must(t, err)
		got = st.waitFor(t, "redelivery", settled)[0]
		if got.Status != feedback.DeliverySucceeded || got.Attempts != 2 {
			t.Errorf("after redelivery: %s", show(got))
		}
		reqs := rc.got()
		if len(reqs) != 2 || reqs[1].header.Get("webhook-id") != reqs[0].header.Get("webhook-id") {
			t.Errorf("a redelivery must keep the webhook-id")
		}
	})
}

func TestDispatchExhaustionDisables(t *testing.T) {
	eachStore(t, func(t *testing.T, s server.Store) {
		rc := newReceiver(t, answer(500))
		st := newSetup(t, s, rc.URL)
		st.dispatcher(t, s, 10*time.Millisecond, 10*time.Millisecond)
		st.submit(t)
		got := st.waitFor(t, "exhaustion", settled)[0]
		if got.Status != feedback.DeliveryFailed || got.Attempts != 3 || got.AttemptLog[2].NextAttemptAt != nil {
			t.Fatalf("delivery %s", show(got))
		}
		w, err := s.Webhook(t.Context(), st.ws, st.sub.ID)
		must(t, err)
		if w.DisabledAt == nil {
			t.Errorf("an exhausted schedule left the subscription enabled")
		}
		// Redelivery after the receiver is fixed starts the schedule anew.
		rc.mu.Lock()
		rc.plan = []func(http.ResponseWriter){answer(500), answer(200)}
		rc.requests = nil
		rc.mu.Unlock()
		_, err = s.UpdateWebhook(t.Context(), st.ws, st.sub.ID, server.WebhookChange{Enabled: new(true)})
		must(t, err)
		_, err = s.Redeliver(t.Context(), st.ws, st.sub.ID, got.ID)
		must(t, err)
		got = st.waitFor(t, "redelivery", settled)[0]
		if got.Status != feedback.DeliverySucceeded || got.Attempts != 5 {
			t.Errorf("after redelivery: %s", show(got))
		}
	})
}

func TestDispatchHonoursRetryAfter(t *testing.T) {
	eachStore(t, func(t *testing.T, s server.Store) {
		rc := newReceiver(t, func(w http.ResponseWriter) {
			w.Header().Set("Retry-After", "2")
			w.WriteHeader(http.StatusTooManyRequests)
		}, answer(200))
		st := newSetup(t, s, rc.URL)
		st.dispatcher(t, s)
		st.submit(t)
		got := st.waitFor(t, "success", settled)[0]
		first := got.AttemptLog[0]
		if got.Status != feedback.DeliverySucceeded || first.StatusCode != 429 || first.NextAttemptAt == nil ||
			first.NextAttemptAt.Sub(first.At.Time) < 2*time.Second {
			t.Fatalf("the retry after a 429 with Retry-After: 2 was scheduled at %s", show(got.AttemptLog))
		}
		if second := got.AttemptLog[1]; second.At.Before(first.NextAttemptAt.Time) {
			t.Errorf("the second attempt came at %v, before its time %v", second.At, first.NextAttemptAt)
		}
	})
}
