package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/feedbackhq/feedback/shared/client"
	"github.com/feedbackhq/feedback/shared/feedback"
)

// testMain is a Main with captured output and its own environment.
type testMain struct {
	*Main
	out, err *bytes.Buffer
	env      map[string]string
}

func newTestMain(t *testing.T, env map[string]string) *testMain {
	t.Helper()
	if env == nil {
		env = map[string]string{}
	}
	if _, ok := env["DATABASE_URL"]; !ok {
		env["DATABASE_URL"] = filepath.Join(t.TempDir(), "data", "feedback.db")
	}
	m := &testMain{Main: NewMain(), out: &bytes.Buffer{}, err: &bytes.Buffer{}, env: env}
	m.Stdout, m.Stderr, m.Getenv = m.out, m.err, func(k string) string { return env[k] }
	return m
}

// run runs a command and returns its stdout, failing the test on error.
func (m *testMain) run(t *testing.T, args ...string) string {
	t.Helper()
	m.out.Reset()
	m.err.Reset()
	if err := m.Run(context.Background(), args); err != nil {
		t.Fatalf("feedbackd %s: %v\nstderr: %s", strings.Join(args, " "), err, m.err)
	}
	return m.out.String()
}

var (
	uuidLine  = regexp.MustCompile(`^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}\n$`)
	tokenLine = regexp.MustCompile(`^fbk_[0-9A-Za-z]{40}\n$`)
)

func TestWorkspaceAndTokenCommands(t *testing.T) {
	m := newTestMain(t, nil)
	ws := m.run(t, "workspace", "create", "--name", "Acme Corp")
	if !uuidLine.MatchString(ws) {
		t.Fatalf("workspace create printed %q; want only an id", ws)
	}
	id := strings.TrimSpace(ws)
	tok := m.run(t, "token", "create", "--workspace", id, "--name", "ci")
	if !tokenLine.MatchString(tok) {
		t.Fatalf("token create printed %q; want only the token", tok)
	}
	list := m.run(t, "token", "list", "--workspace", id)
	if !strings.Contains(list, "ci") || !strings.Contains(list, strings.TrimSpace(tok)[:8]) || strings.Contains(list, strings.TrimSpace(tok)) {
		t.Errorf("token list:\n%s", list)
	}
	tokenID := strings.Fields(strings.Split(list, "\n")[1])[0]
	m.run(t, "token", "revoke", "--workspace", id, tokenID)
	if list := m.run(t, "token", "list", "--workspace", id); strings.Count(list, "-\n") != 0 {
		t.Errorf("the revoked token shows no revocation time:\n%s", list)
	}
	for _, args := range [][]string{
		{"workspace", "create"},
		{"token", "create", "--workspace", "nope", "--name", "x"},
		{"token", "create", "--workspace", feedback.NewID(), "--name", "x"},
		{"token", "revoke", "--workspace", id, feedback.NewID()},
		{"token", "revoke", "--workspace", id},
		{"frobnicate"},
	} {
		if err := m.Run(context.Background(), args); err == nil {
			t.Errorf("feedbackd %s succeeded; want an error", strings.Join(args, " "))
		}
	}
}

func TestPostgresNeedsSecretKey(t *testing.T) {
	m := newTestMain(t, map[string]string{"DATABASE_URL": "postgres://nobody@127.0.0.1:1/x"})
	err := m.Run(context.Background(), []string{"workspace", "create", "--name", "x"})
	if err == nil || !strings.Contains(err.Error(), "FEEDBACK_SECRET_KEY") {
		t.Errorf("err = %v; want one naming FEEDBACK_SECRET_KEY", err)
	}
}

var visitorURL = regexp.MustCompile(`(?m)^\s+(hygiene|review|survey)\s+.*?(http://\S+/q/(\S+))$`)

func TestDemoAndServe(t *testing.T) {
	m := newTestMain(t, nil)
	out := m.run(t, "demo", "--base-url", "http://example.test")
	tok := regexp.MustCompile(`fbk_[0-9A-Za-z]{40}`).FindString(out)
	urls := visitorURL.FindAllStringSubmatch(out, -1)
	if tok == "" || len(urls) != 3 {
		t.Fatalf("demo printed no token or not 3 visitor URLs:\n%s", out)
	}
	again := m.run(t, "demo")
	if n := len(visitorURL.FindAllStringSubmatch(again, -1)); n != 3 {
		t.Errorf("a second demo run printed %d URLs; want the same 3 posters", n)
	}
	old := tok
	tok = regexp.MustCompile(`fbk_[0-9A-Za-z]{40}`).FindString(again)
	if tok == "" || tok == old {
		t.Fatalf("the second demo run printed no new token:\n%s", again)
	}

	ctx, cancel := context.WithCancel(context.Background())
	ready := make(chan string, 1)
	m.Ready = ready
	done := make(chan error, 1)
	go func() { done <- m.Run(ctx, []string{"serve", "--addr", "127.0.0.1:0"}) }()
	var addr string
	select {
	case addr = <-ready:
	case err := <-done:
		t.Fatalf("serve stopped: %v\n%s", err, m.err)
	case <-time.After(20 * time.Second):
		t.Fatal("serve did not start")
	}
	c := client.New("http://"+addr, tok)
	page, err := c.Hygiene(ctx, feedback.ListParams{Page: 1, PerPage: 10})
	if err != nil || page.Meta.Total != 40 || len(page.Data) != 10 {
		t.Fatalf("demo hygiene: %+v, %v", page, err)
	}
	for i, h := range page.Data {
		if !h.CreatedAt.Equal(h.CapturedAt.Time) || i > 0 && !h.CapturedAt.Before(page.Data[i-1].CapturedAt.Time) {
			t.Errorf("demo hygiene %d: captured %v, created %v; want stored when captured, newest first", i, h.CapturedAt, h.CreatedAt)
		}
	}
	_, err = client.New("http://"+addr, old).Hygiene(ctx, feedback.ListParams{Page: 1, PerPage: 1})
	if p := (*feedback.Problem)(nil); !errors.As(err, &p) || p.Code != feedback.ETokenRevoked {
		t.Errorf("the first demo token after a second demo run: %v; want token_revoked", err)
	}
	for _, u := range urls {
		sub := feedback.Submission{ID: feedback.NewID()}
		rating := 4
		switch u[1] {
		case "survey":
			sub.Answers = map[string]json.RawMessage{"overall": json.RawMessage("5")}
		default:
			sub.Rating = &rating
		}
		status, _, err := client.New("http://"+addr, "").Submit(ctx, u[3], sub)
		if err != nil || status != http.StatusCreated {
			t.Errorf("submit to the demo %s poster: %d %v", u[1], status, err)
		}
	}
	cancel()
	if err := <-done; err != nil {
		t.Errorf("serve returned %v after shutdown", err)
	}
}

func TestHelp(t *testing.T) {
	m := newTestMain(t, nil)
	for _, arg := range []string{"--help", "-h", "help"} {
		out := m.run(t, arg)
		for _, want := range []string{"Commands:", "token create", "federation add", "demo", "Flags of serve", "-addr", "-web-dir", "FEEDBACK_BASE_URL"} {
			if !strings.Contains(out, want) {
				t.Errorf("feedbackd %s lacks %q:\n%s", arg, want, out)
			}
		}
	}
	for _, args := range [][]string{{"demo", "-h"}, {"serve", "--help"}, {"token", "create", "-h"}} {
		if err := m.Run(context.Background(), args); err != nil {
			t.Errorf("feedbackd %s: %v; a request for help is not an error", strings.Join(args, " "), err)
		}
	}
}
