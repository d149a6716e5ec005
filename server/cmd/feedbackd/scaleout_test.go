package main

import (
	"bufio"
	"context"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/feedbackhq/feedback/server/internal/pgtest"
	"github.com/feedbackhq/feedback/server/secret"
)

// TestScaleOut runs three feedbackd processes on loopback ports against
// one PostgreSQL database: they share one rate-limit budget, and a token
// revoked through the command line is refused by every one of them on its
// next request.
func TestScaleOut(t *testing.T) {
	if testing.Short() {
		t.Skip("scale-out test builds and starts processes; skipped with -short")
	}
	env := []string{"DATABASE_URL=" + pgtest.URL(t), "FEEDBACK_SECRET_KEY=" + secret.NewKey(), "FEEDBACK_RATE_LIMIT=100"}
	bin := buildFeedbackd(t)
	ws := strings.TrimSpace(runBin(t, bin, env, "workspace", "create", "--name", "Scale"))
	tok := strings.TrimSpace(runBin(t, bin, env, "token", "create", "--workspace", ws, "--name", "scale"))
	var addrs []string
	for range 3 {
		addrs = append(addrs, startFeedbackd(t, bin, env))
	}

	// Stay inside one rate-limit window: start at the top of a minute if
	// fewer than 15 seconds of this one are left.
	if left := time.Until(time.Now().Truncate(time.Minute).Add(time.Minute)); left < 15*time.Second {
		time.Sleep(left + 100*time.Millisecond)
	}
	var ok, limited atomic.Int32
	var wg sync.WaitGroup
	for i := range 150 {
		wg.Go(func() {
			switch get(t, addrs[i%3], tok) {
			case http.StatusOK:
				ok.Add(1)
			case http.StatusTooManyRequests:
				limited.Add(1)
			}
		})
	}
	wg.Wait()
	if ok.Load() != 100 || limited.Load() != 50 {
		t.Errorf("150 requests over 3 instances: %d ok, %d limited; want exactly 100 and 50", ok.Load(), limited.Load())
	}

	list := runBin(t, bin, env, "token", "list", "--workspace", ws)
	tokenID := strings.Fields(strings.Split(list, "\n")[1])[0]
	runBin(t, bin, env, "token", "revoke", "--workspace", ws, tokenID)
	for _, a := range addrs {
		if code := get(t, a, tok); code != http.StatusUnauthorized {
			t.Errorf("instance %s answered %d to a revoked token; want 401", a, code)
		}
	}
}

func get(t *testing.T, addr, tok string) int {
	req, _ := http.NewRequest("GET", "http://"+addr+"/api/v1/hygiene", nil)
	req.Header.Set("Authorization", "Bearer "+tok)
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Errorf("GET %s: %v", addr, err)
		return 0
	}
	res.Body.Close()
	return res.StatusCode
}

// buildFeedbackd builds the binary once per test run.
func buildFeedbackd(t *testing.T) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "feedbackd")
	out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput()
	if err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	return bin
}

func runBin(t *testing.T, bin string, env []string, args ...string) string {
	t.Helper()
	cmd := exec.Command(bin, args...)
	cmd.Env = append(os.Environ(), env...)
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("feedbackd %s: %v\n%s", strings.Join(args, " "), err, stderr.String())
	}
	return string(out)
}

var listening = regexp.MustCompile(`feedbackd listening"? addr=(\S+)`)

// startFeedbackd starts serve on a free loopback port and returns its
// address once it listens; the process is stopped when the test ends.
func startFeedbackd(t *testing.T, bin string, env []string) string {
	t.Helper()
	addr, _ := startFeedbackdProc(t, bin, env)
	return addr
}

// startFeedbackdProc is startFeedbackd that also returns the process.
func startFeedbackdProc(t *testing.T, bin string, env []string) (string, *os.Process) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	cmd := exec.CommandContext(ctx, bin, "serve", "--addr", "127.0.0.1:0")
	cmd.Env = append(os.Environ(), env...)
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cancel(); _ = cmd.Wait() })
	found := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(stderr)
		for sc.Scan() {
			if m := listening.FindStringSubmatch(sc.Text()); m != nil {
				found <- m[1]
			}
		}
	}()
	select {
	case a := <-found:
		return a, cmd.Process
	case <-time.After(30 * time.Second):
		t.Fatal("feedbackd did not start listening")
	}
	return "", nil
}
