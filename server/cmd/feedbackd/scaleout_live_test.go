package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/coder/websocket"

	"github.com/feedbackhq/feedback/server/internal/pgtest"
	"github.com/feedbackhq/feedback/server/secret"
	"github.com/feedbackhq/feedback/shared/feedback"
)

// TestScaleOutLive runs three feedbackd processes on one PostgreSQL
// database: a socket on the first receives the event of a submission
// stored through the third, and a token revoked through the command
// line closes its socket on the first with 1008.
func TestScaleOutLive(t *testing.T) {
	if testing.Short() {
		t.Skip("scale-out test builds and starts processes; skipped with -short")
	}
	env := []string{"DATABASE_URL=" + pgtest.URL(t), "FEEDBACK_SECRET_KEY=" + secret.NewKey()}
	bin := buildFeedbackd(t)
	ws := strings.TrimSpace(runBin(t, bin, env, "workspace", "create", "--name", "Scale"))
	tok := strings.TrimSpace(runBin(t, bin, env, "token", "create", "--workspace", ws, "--name", "scale"))
	a := startFeedbackd(t, bin, env) // a listens, c stores; the command line revokes
	startFeedbackd(t, bin, env)
	c := startFeedbackd(t, bin, env)

	poster := hygienePoster(t, c, tok, "Lobby")

	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	sock, ready := dialLive(t, ctx, a, tok)
	id := feedback.NewID()
	apiCall(t, c, "", "POST", "/q/"+poster.Code, map[string]any{"id": id, "rating": 2}, nil)
	var e feedback.Event
	readJSON(t, ctx, sock, &e)
	if e.Type != feedback.EventHygieneSubmissionCreated || !strings.Contains(string(e.Data), id) || e.Seq <= ready.Seq {
		t.Fatalf("instance A received %+v after %+v", e, ready)
	}

	list := runBin(t, bin, env, "token", "list", "--workspace", ws)
	runBin(t, bin, env, "token", "revoke", "--workspace", ws, strings.Fields(strings.Split(list, "\n")[1])[0])
	for {
		if _, _, err := sock.Read(ctx); err != nil {
			var ce websocket.CloseError
			if !errors.As(err, &ce) || ce.Code != websocket.StatusPolicyViolation {
				t.Errorf("after the revocation the socket ended with %v, want close 1008", err)
			}
			break
		}
	}
}

// apiCall sends a JSON request to the instance at addr and decodes the
// hygienePoster creates a location named name through the instance at
// addr and returns a hygiene poster of it.
func hygienePoster(t *testing.T, addr, tok, name string) feedback.Poster {
	t.Helper()
	var loc feedback.Location
	apiCall(t, addr, tok, "POST", "/api/v1/locations", map[string]any{"name": name}, &loc)
	var poster feedback.Poster
	apiCall(t, addr, tok, "POST", "/api/v1/locations/"+loc.ID+"/posters", map[string]any{"form": "hygiene"}, &poster)
	return poster
}

// answer into out.
func apiCall(t *testing.T, addr, tok, method, path string, body, out any) {
	t.Helper()
	b, _ := json.Marshal(body)
	req, _ := http.NewRequest(method, "http://"+addr+path, bytes.NewReader(b))
	req.Header.Set("Content-Type", "application/json")
	if tok != "" {
		req.Header.Set("Authorization", "Bearer "+tok)
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	if res.StatusCode >= 300 {
		t.Fatalf("%s %s: %d", method, path, res.StatusCode)
	}
	if out != nil {
		if err := json.NewDecoder(res.Body).Decode(out); err != nil {
			t.Fatal(err)
		}
	}
}

// readJSON reads the socket's next message into v.
// dialLive opens the live stream of the token's workspace on the
// instance at addr (host:port) and reads its live.ready; the socket
// closes when the test ends.
func dialLive(t *testing.T, ctx context.Context, addr, tok string) (*websocket.Conn, feedback.LiveControl) {
	t.Helper()
	sock, _, err := websocket.Dial(ctx, "ws://"+addr+"/api/v1/live", &websocket.DialOptions{
		HTTPHeader: http.Header{"Authorization": {"Bearer " + tok}}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { sock.CloseNow() })
	var ready feedback.LiveControl
	readJSON(t, ctx, sock, &ready)
	return sock, ready
}

func readJSON(t *testing.T, ctx context.Context, c *websocket.Conn, v any) {
	t.Helper()
	_, b, err := c.Read(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, v); err != nil {
		t.Fatalf("%v: %s", err, b)
	}
}

// TestLiveShutdownGoingAway: a feedbackd that receives SIGTERM closes
// its live sockets with 1001, so that their clients resume elsewhere.
func TestLiveShutdownGoingAway(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and starts a process; skipped with -short")
	}
	env := []string{"DATABASE_URL=" + pgtest.URL(t), "FEEDBACK_SECRET_KEY=" + secret.NewKey()}
	bin := buildFeedbackd(t)
	ws := strings.TrimSpace(runBin(t, bin, env, "workspace", "create", "--name", "Down"))
	tok := strings.TrimSpace(runBin(t, bin, env, "token", "create", "--workspace", ws, "--name", "down"))
	addr, proc := startFeedbackdProc(t, bin, env)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	sock, _ := dialLive(t, ctx, addr, tok)
	if err := proc.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	_, _, err := sock.Read(ctx)
	var ce websocket.CloseError
	if !errors.As(err, &ce) || ce.Code != websocket.StatusGoingAway {
		t.Errorf("on SIGTERM the socket ended with %v, want close 1001", err)
	}
}
