package http_test

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"

	feedbackhttp "github.com/feedbackhq/feedback/server/http"
	"github.com/feedbackhq/feedback/server/live"
	"github.com/feedbackhq/feedback/shared/feedback"
)

// dialLive opens GET /api/v1/live with query and header, and returns the
// socket and the answer of a refused upgrade.
func (ts *TestServer) dialLive(t *testing.T, query string, h http.Header) (*websocket.Conn, *http.Response, error) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	u := "ws" + strings.TrimPrefix(ts.URL, "http") + "/api/v1/live"
	if query != "" {
		u += "?" + query
	}
	c, res, err := websocket.Dial(ctx, u, &websocket.DialOptions{HTTPHeader: h})
	if c != nil {
		t.Cleanup(func() { c.CloseNow() })
	}
	return c, res, err
}

// bearer returns the header of an API token.
func bearer(token string) http.Header { return http.Header{"Authorization": {"Bearer " + token}} }

// readLive reads the next message as JSON into v.
func readLive(t *testing.T, c *websocket.Conn, v any) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	typ, b, err := c.Read(ctx)
	if err != nil {
		t.Fatalf("read: %v", err)
	}
	if typ != websocket.MessageText || json.Unmarshal(b, v) != nil {
		t.Fatalf("read a %v message %s", typ, b)
	}
}

// closeCode waits for the server to close c and returns its code.
func closeCode(t *testing.T, c *websocket.Conn) websocket.StatusCode {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 15*time.Second)
	defer cancel()
	for {
		if _, _, err := c.Read(ctx); err != nil {
			var ce websocket.CloseError
			if !errors.As(err, &ce) {
				t.Fatalf("the socket ended without a close frame: %v", err)
			}
			return ce.Code
		}
	}
}

// TestLiveStream: a socket receives a submission's event as GET /events
// answers it, after live.ready; one resumed after it receives it too.
func TestLiveStream(t *testing.T) {
	eachStore(t, func(t *testing.T, ts *TestServer) {
		f := ts.newFixture(t, "Acme")
		c, res, err := ts.dialLive(t, "", bearer(f.Token))
		if err != nil {
			t.Fatal(err)
		}
		for _, h := range []string{"X-Request-Id", "X-RateLimit-Limit", "X-RateLimit-Remaining", "X-RateLimit-Reset"} {
			if res.Header.Get(h) == "" {
				t.Errorf("the upgrade's answer has no %s", h)
			}
		}
		var ready feedback.LiveControl
		readLive(t, c, &ready)
		if ready.Type != feedback.LiveReady {
			t.Fatalf("first message %+v, want live.ready", ready)
		}
		id := feedback.NewID()
		submit(t, ts, f.Hygiene.Code, map[string]any{"id": id, "rating": 4}).expect(t, 201, "")
		var got feedback.Event
		readLive(t, c, &got)
		var list feedback.EventList
		ts.do(t, req{method: "GET", path: "/api/v1/events?after=" + strconv.FormatInt(ready.Seq, 10), token: f.Token}).
			expect(t, 200, "").decode(t, &list)
		if len(list.Data) != 1 || got.ID != list.Data[0].ID || got.Seq != list.Data[0].Seq ||
			got.Type != feedback.EventHygieneSubmissionCreated || !strings.Contains(string(got.Data), id) {
			t.Fatalf("live event %+v; GET /events after %d: %+v", got, ready.Seq, list.Data)
		}

		again, _, err := ts.dialLive(t, "after="+strconv.FormatInt(ready.Seq, 10)+"&types=hygiene_submission.created", bearer(f.Token))
		if err != nil {
			t.Fatal(err)
		}
		var replayed feedback.Event
		readLive(t, again, &replayed)
		readLive(t, again, &ready)
		if replayed.ID != got.ID || ready.Type != feedback.LiveReady || ready.Seq != got.Seq {
			t.Errorf("resumed: %+v then %+v; want event %s then live.ready at %d", replayed, ready, got.ID, got.Seq)
		}
	})
}

// TestLiveRefusals: what cannot open a stream is answered before the
// upgrade, as a problem; a token that names another workspace is
// refused, and another workspace's stream sees nothing of this one.
func TestLiveRefusals(t *testing.T) {
	eachStore(t, func(t *testing.T, ts *TestServer) {
		f := ts.newFixture(t, "Acme")
		other := ts.NewTenant(t, "Other")
		ts.do(t, req{method: "GET", path: "/api/v1/live"}).expect(t, 401, feedback.EUnauthenticated)
		ts.do(t, req{method: "GET", path: "/api/v1/live", token: "fbk_" + strings.Repeat("x", 43)}).expect(t, 401, feedback.EInvalidToken)
		for _, q := range []string{"after=-1", "types=nope", "location_id=42", "since=1", "after=1&after=2"} {
			ts.do(t, req{method: "GET", path: "/api/v1/live?" + q, token: f.Token}).expect(t, 400, feedback.EInvalidParameter)
		}
		id, value := ts.newToken(t, f.ID)
		if _, err := ts.Store.RevokeToken(context.Background(), f.ID, id); err != nil {
			t.Fatal(err)
		}
		_, res, err := ts.dialLive(t, "", bearer(value))
		if err == nil || res == nil || res.StatusCode != 401 || res.Header.Get("Content-Type") != "application/problem+json" {
			t.Errorf("a revoked token's upgrade: %v, %+v", err, res)
		}

		ts.do(t, req{method: "GET", path: "/api/v1/live?workspace=acme", token: other.Token}).expect(t, 401, feedback.EInvalidToken)
		ts.do(t, req{method: "GET", path: "/api/v1/live?workspace=" + f.ID, token: other.Token}).expect(t, 401, feedback.EInvalidToken)
		c, _, err := ts.dialLive(t, "after=0&workspace=other", bearer(other.Token))
		if err != nil {
			t.Fatal(err)
		}
		submit(t, ts, f.Hygiene.Code, map[string]any{"id": feedback.NewID(), "rating": 4}).expect(t, 201, "")
		var first feedback.LiveControl
		readLive(t, c, &first)
		if first.Type != feedback.LiveReady || first.Seq != 0 {
			t.Errorf("another workspace's stream began with %+v, want live.ready at 0", first)
		}
	})
}

// TestLiveSession: a dashboard session opens a stream only from the
// service's own origin (elsewhere it is not accepted: 401), naming its
// workspace in the query; revoking the session closes the stream.
func TestLiveSession(t *testing.T) {
	eachStore(t, func(t *testing.T, ts *TestServer) {
		f := ts.newFixture(t, "Acme")
		ts.NewTenant(t, "Other") // the owner sees two workspaces
		ada := ts.signIn(t, "ada")
		h := func(origin string) http.Header {
			return http.Header{"Cookie": {ada.cookie()}, "Origin": {origin}}
		}
		ada.do(t, req{method: "GET", path: "/api/v1/live?workspace=acme", header: http.Header{"Origin": {"https://evil.example"}}}).
			expect(t, 401, feedback.EUnauthenticated)
		if _, res, err := ts.dialLive(t, "workspace=acme", h("https://evil.example")); err == nil || res.StatusCode != 401 {
			t.Errorf("a cross-site upgrade with the session: %v", err)
		}
		if _, res, err := ts.dialLive(t, "workspace=acme", http.Header{"Cookie": {ada.cookie()}}); err == nil || res.StatusCode != 401 {
			t.Errorf("an upgrade with the session and no Origin: %v", err)
		}
		c, _, err := ts.dialLive(t, "workspace=acme", h(ts.URL))
		if err != nil {
			t.Fatal(err)
		}
		var ready feedback.LiveControl
		readLive(t, c, &ready)
		submit(t, ts, f.Hygiene.Code, map[string]any{"id": feedback.NewID(), "rating": 5}).expect(t, 201, "")
		var e feedback.Event
		readLive(t, c, &e)
		if e.WorkspaceID != f.ID || e.Type != feedback.EventHygieneSubmissionCreated {
			t.Errorf("the session's stream got %+v", e)
		}
		if err := ts.Store.RevokeSession(context.Background(), ada.User.ID, ada.Session.ID, "test"); err != nil {
			t.Fatal(err)
		}
		if code := closeCode(t, c); code != websocket.StatusPolicyViolation {
			t.Errorf("a revoked session's socket closed with %v, want 1008", code)
		}
	})
}

// TestLiveRemovedMember: removing a member closes the sockets of their
// sessions in that workspace with 1008.
func TestLiveRemovedMember(t *testing.T) {
	eachStore(t, func(t *testing.T, ts *TestServer) {
		f := ts.newFixture(t, "Acme")
		ts.signIn(t, "ada") // the first user is the platform owner
		bob := ts.signIn(t, "bob")
		ts.addMember(t, f.ID, bob.User.ID, feedback.RoleViewer)
		c, _, err := ts.dialLive(t, "", http.Header{"Cookie": {bob.cookie()}, "Origin": {ts.URL}})
		if err != nil {
			t.Fatal(err)
		}
		var ready feedback.LiveControl
		readLive(t, c, &ready)
		if err := ts.Store.RemoveMember(context.Background(), f.ID, bob.User.ID); err != nil {
			t.Fatal(err)
		}
		if code := closeCode(t, c); code != websocket.StatusPolicyViolation {
			t.Errorf("a removed member's socket closed with %v, want 1008", code)
		}
	})
}

// TestLiveRevokedToken: revoking a token closes its open sockets with
// 1008 (within the hub's recheck, 3 s), and not the others'.
func TestLiveRevokedToken(t *testing.T) {
	eachStore(t, func(t *testing.T, ts *TestServer) {
		f := ts.newFixture(t, "Acme")
		id, value := ts.newToken(t, f.ID)
		doomed, _, err := ts.dialLive(t, "", bearer(value))
		if err != nil {
			t.Fatal(err)
		}
		kept, _, err := ts.dialLive(t, "", bearer(f.Token))
		if err != nil {
			t.Fatal(err)
		}
		var ready feedback.LiveControl
		readLive(t, doomed, &ready)
		readLive(t, kept, &ready)
		if _, err := ts.Store.RevokeToken(context.Background(), f.ID, id); err != nil {
			t.Fatal(err)
		}
		if code := closeCode(t, doomed); code != websocket.StatusPolicyViolation {
			t.Errorf("the revoked token's socket closed with %v, want 1008", code)
		}
		submit(t, ts, f.Hygiene.Code, map[string]any{"id": feedback.NewID(), "rating": 3}).expect(t, 201, "")
		var e feedback.Event
		readLive(t, kept, &e)
	})
}

// TestLiveShutdown: closing the hub closes the sockets with 1001.
func TestLiveShutdown(t *testing.T) {
	for _, kind := range storeKinds {
		t.Run(kind, func(t *testing.T) {
			t.Parallel()
			var hub *live.Hub
			ts := MustOpenServer(t, kind, func(c *feedbackhttp.Config) {
				hub = &live.Hub{Source: c.Store}
				c.Live = hub
			})
			f := ts.NewTenant(t, "Acme")
			c, _, err := ts.dialLive(t, "", bearer(f.Token))
			if err != nil {
				t.Fatal(err)
			}
			var ready feedback.LiveControl
			readLive(t, c, &ready)
			go hub.Close()
			if code := closeCode(t, c); code != websocket.StatusGoingAway {
				t.Errorf("closed with %v, want 1001", code)
			}
			ts.do(t, req{method: "GET", path: "/api/v1/live", token: f.Token}).expect(t, 503, feedback.EUnavailable)
		})
	}
}
