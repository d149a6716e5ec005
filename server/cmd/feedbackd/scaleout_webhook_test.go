package main

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	standardwebhooks "github.com/standard-webhooks/standard-webhooks/libraries/go"

	"github.com/feedbackhq/feedback/server/internal/pgtest"
	"github.com/feedbackhq/feedback/server/secret"
)

// startThree starts three feedbackd processes on one new PostgreSQL
// database (webhooks may reach loopback) with a workspace named name,
// and returns their addresses, an API token of the workspace and the
// database's URL.
func startThree(t *testing.T, name string) (addrs []string, token, db string) {
	t.Helper()
	db = pgtest.URL(t)
	env := []string{"DATABASE_URL=" + db, "FEEDBACK_SECRET_KEY=" + secret.NewKey(),
		"FEEDBACK_WEBHOOK_ALLOW=127.0.0.0/8"}
	bin := buildFeedbackd(t)
	ws := strings.TrimSpace(runBin(t, bin, env, "workspace", "create", "--name", name))
	token = strings.TrimSpace(runBin(t, bin, env, "token", "create", "--workspace", ws, "--name", strings.ToLower(name)))
	for range 3 {
		addrs = append(addrs, startFeedbackd(t, bin, env))
	}
	return addrs, token, db
}

// TestScaleOutWebhooks runs three feedbackd processes on one PostgreSQL
// database, each with its dispatcher: 30 test events requested through
// all three reach the receiver exactly once each, signed.
func TestScaleOutWebhooks(t *testing.T) {
	if testing.Short() {
		t.Skip("scale-out test builds and starts processes; skipped with -short")
	}
	addrs, tok, _ := startThree(t, "Hooks")

	var mu sync.Mutex
	got := map[string]int{}
	whsec := secret.NewWebhookSecret()
	verifier, err := standardwebhooks.NewWebhook(whsec)
	if err != nil {
		t.Fatal(err)
	}
	rc := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		if err := verifier.Verify(body, r.Header); err != nil {
			t.Errorf("signature of %s: %v", r.Header.Get("webhook-id"), err)
		}
		mu.Lock()
		got[r.Header.Get("webhook-id")]++
		mu.Unlock()
	}))
	defer rc.Close()

	var sub struct{ ID string }
	call(t, addrs[0], tok, "POST", "/api/v1/webhooks", `{"url":"`+rc.URL+`","events":["*"],"secret":"`+whsec+`"}`, 201, &sub)
	for i := range 30 {
		call(t, addrs[i%3], tok, "POST", "/api/v1/webhooks/"+sub.ID+"/test", "", 202, nil)
	}
	deadline := time.Now().Add(20 * time.Second)
	for {
		mu.Lock()
		n := len(got)
		mu.Unlock()
		if n == 30 || time.Now().After(deadline) {
			break
		}
		time.Sleep(50 * time.Millisecond)
	}
	time.Sleep(300 * time.Millisecond) // a duplicate would arrive meanwhile
	mu.Lock()
	defer mu.Unlock()
	if len(got) != 30 {
		t.Errorf("the receiver got %d distinct deliveries, want 30", len(got))
	}
	for id, n := range got {
		if n != 1 {
			t.Errorf("delivery %s arrived %d times", id, n)
		}
	}
}

// call sends an API request and decodes the answer into out, failing the
// test unless the status is want.
func call(t *testing.T, addr, tok, method, path, body string, want int, out any) {
	t.Helper()
	req, _ := http.NewRequest(method, "http://"+addr+path, strings.NewReader(body))
	req.Header.Set("Authorization", "Bearer "+tok)
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatalf("%s %s: %v", method, path, err)
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	if res.StatusCode != want {
		t.Fatalf("%s %s answered %d, want %d: %s", method, path, res.StatusCode, want, b)
	}
	if out != nil {
		if err := json.Unmarshal(b, out); err != nil {
			t.Fatal(err)
		}
	}
}
