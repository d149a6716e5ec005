package dashboard

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/coder/websocket"
)

// script is what a test server does on each connection, in order: the
// frames it sends, then the close code (0 drops the connection without
// a close frame).
type script struct {
	frames []string
	code   websocket.StatusCode
}

// liveServer serves the scripts, one per connection, and records the
// query of each.
type liveServer struct {
	t       *testing.T
	mu      sync.Mutex
	scripts []script
	queries []string
}

func (s *liveServer) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	n := len(s.queries)
	s.queries = append(s.queries, r.URL.RawQuery)
	s.mu.Unlock()
	if n >= len(s.scripts) {
		http.Error(w, "no more connections in this test", http.StatusServiceUnavailable)
		return
	}
	c, err := websocket.Accept(w, r, nil)
	if err != nil {
		s.t.Errorf("accept: %v", err)
		return
	}
	sc := s.scripts[n]
	for _, f := range sc.frames {
		if err := c.Write(r.Context(), websocket.MessageText, []byte(f)); err != nil {
			s.t.Errorf("write: %v", err)
		}
	}
	if sc.code == 0 {
		_ = c.CloseNow()
		return
	}
	_ = c.Close(sc.code, "")
}

// record collects a client's updates.
type record struct {
	mu      sync.Mutex
	updates []liveUpdate
}

func (r *record) emit(u liveUpdate) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.updates = append(r.updates, u)
}

// String describes the updates: states, and the frames by action and
// seq, for example "connecting ready(fresh) event:11 retrying".
func (r *record) String() string {
	r.mu.Lock()
	defer r.mu.Unlock()
	var b []string
	for _, u := range r.updates {
		switch {
		case u.frame == nil && u.state == liveEnded:
			b = append(b, "ended:"+u.ended)
		case u.frame == nil:
			b = append(b, [...]string{"connecting", "live", "retrying", "offline", "ended"}[u.state])
		case u.frame.action == liveReady && u.frame.fresh:
			b = append(b, "ready(fresh)")
		case u.frame.action == liveReady:
			b = append(b, "ready")
		case u.frame.action == liveReset:
			b = append(b, "reset")
		default:
			b = append(b, fmt.Sprintf("event:%d", u.frame.event.Seq))
		}
	}
	return strings.Join(b, " ")
}

// runClient runs a client of srv until it stops, or fails after 10 s.
func runClient(t *testing.T, srv *httptest.Server, ended func(context.Context) string, online func() bool, changed *signal) *record {
	t.Helper()
	rec := &record{}
	c := &liveClient{
		m:       liveMachine{rand: func(int64) int64 { return 0 }},
		url:     func(q string) string { return liveURL(srv.URL, "demo", q) },
		dial:    dialLive,
		ended:   ended,
		online:  online,
		changed: changed,
		emit:    rec.emit,
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	c.run(ctx)
	if ctx.Err() != nil {
		t.Fatalf("the client did not stop: %s", rec)
	}
	return rec
}

func alwaysOnline() bool { return true }

const (
	ready10 = `{"type":"live.ready","seq":10}`
	ready12 = `{"type":"live.ready","seq":12}`
	ev11    = `{"id":"0197a5f0-0000-7000-8000-000000000011","type":"hygiene_submission.created","seq":11,"data":{}}`
	ev12    = `{"id":"0197a5f0-0000-7000-8000-000000000012","type":"review_response.created","seq":12,"data":{}}`
)

// TestLiveClientResumes: a stream that the server ends (going away, a
// dropped connection) resumes after the last seq seen, without a repeat;
// a policy violation ends it for good.
func TestLiveClientResumes(t *testing.T) {
	ls := &liveServer{t: t, scripts: []script{
		{frames: []string{ready10, ev11}, code: websocket.StatusGoingAway},
		{frames: []string{ev11, ev12, ready12}, code: 0},
		{frames: []string{ready12}, code: websocket.StatusPolicyViolation},
	}}
	srv := httptest.NewServer(ls)
	defer srv.Close()
	asked := 0
	ended := func(context.Context) string { asked++; return "" } // the session holds, or it cannot be told
	rec := runClient(t, srv, ended, alwaysOnline, newSignal())

	if got, want := rec.String(), "ready(fresh) event:11 retrying event:12 ready retrying ready ended:signed-out"; got != want {
		t.Errorf("updates:\n got %s\nwant %s", got, want)
	}
	want := []string{"workspace=demo", "workspace=demo&after=11", "workspace=demo&after=12"}
	if fmt.Sprint(ls.queries) != fmt.Sprint(want) {
		t.Errorf("queries %q, want %q", ls.queries, want)
	}
	if asked != 2 { // after the dropped connection, and after the policy close
		t.Errorf("the session was checked %d times, want 2", asked)
	}
}

// TestLiveClientEnds: a connection the browser cannot explain (as every
// close in the wasm) ends the stream when the API says the session is
// over or the user left the workspace; a failed dial counts the same.
func TestLiveClientEnds(t *testing.T) {
	for _, why := range []string{endSignedOut, endNoAccess} {
		ls := &liveServer{t: t, scripts: []script{{frames: []string{ready10}, code: 0}}}
		srv := httptest.NewServer(ls)
		rec := runClient(t, srv, func(context.Context) string { return why }, alwaysOnline, newSignal())
		srv.Close()
		if got, want := rec.String(), "ready(fresh) ended:"+why; got != want {
			t.Errorf("updates %s, want %s", got, want)
		}
	}

	srv := httptest.NewServer(&liveServer{t: t}) // refuses every upgrade with 503
	n := 0
	rec := runClient(t, srv, func(context.Context) string {
		if n++; n == 3 {
			return endSignedOut
		}
		return ""
	}, alwaysOnline, newSignal())
	srv.Close()
	if got, want := rec.String(), "retrying retrying ended:signed-out"; got != want {
		t.Errorf("refused dials: updates %s, want %s", got, want)
	}
}

// TestLiveClientOffline: offline, the client waits without dialling and
// connects as soon as the browser is back online.
func TestLiveClientOffline(t *testing.T) {
	ls := &liveServer{t: t, scripts: []script{{frames: []string{ready10}, code: websocket.StatusPolicyViolation}}}
	srv := httptest.NewServer(ls)
	defer srv.Close()
	var mu sync.Mutex
	on := false
	online := func() bool { mu.Lock(); defer mu.Unlock(); return on }
	changed := newSignal()
	go func() {
		time.Sleep(50 * time.Millisecond) // the client waits meanwhile; nothing is asserted on the time
		mu.Lock()
		on = true
		mu.Unlock()
		changed.notify()
	}()
	rec := runClient(t, srv, func(context.Context) string { return "" }, online, changed)
	if got, want := rec.String(), "offline ready(fresh) ended:signed-out"; got != want {
		t.Errorf("updates %s, want %s", got, want)
	}
}

func TestLiveURL(t *testing.T) {
	for _, tt := range []struct{ base, query, want string }{
		{"http://127.0.0.1:8080", "", "ws://127.0.0.1:8080/api/v1/live?workspace=demo"},
		{"https://feedback.example", "after=42", "wss://feedback.example/api/v1/live?workspace=demo&after=42"},
	} {
		if got := liveURL(tt.base, "demo", tt.query); got != tt.want {
			t.Errorf("liveURL(%q, %q) = %q, want %q", tt.base, tt.query, got, tt.want)
		}
	}
}
