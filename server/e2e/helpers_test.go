package e2e_test

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// chromiumPath is Debian's Chromium, the browser the tests drive.
const chromiumPath = "/usr/bin/chromium"

// env is what TestMain prepares once for every test.
var env struct {
	root      string // the repository
	feedbackd string // the server binary
	// webA and webB hold two different builds of app.wasm, each with its
	// .br and .gz copies; versionA and versionB are the build ids the
	// server derives from them.
	webA, webB         string
	versionA, versionB string
	skip               string // why the browser tests skip, when they do
}

// skipped records that the skip line has been printed once.
var skipped atomic.Bool

func TestMain(m *testing.M) { os.Exit(testMain(m)) }

func testMain(m *testing.M) int {
	flag.Parse()
	if !testing.Verbose() { // the test provider logs through slog's default
		slog.SetDefault(slog.New(slog.NewTextHandler(io.Discard, nil)))
	}
	if _, err := os.Stat(chromiumPath); err != nil {
		if ci() {
			fmt.Fprintf(os.Stderr, "e2e: CI=true requires Chromium at %s: %v\n", chromiumPath, err)
			return 1
		}
		env.skip = fmt.Sprintf("e2e: %s not found; skipping the browser tests (apt-get install chromium; CI=true makes this a failure)", chromiumPath)
		return m.Run()
	}
	dir, err := os.MkdirTemp("", "feedback-e2e-")
	if err != nil {
		fmt.Fprintln(os.Stderr, "e2e:", err)
		return 1
	}
	defer os.RemoveAll(dir)
	if err := build(dir); err != nil {
		fmt.Fprintln(os.Stderr, "e2e:", err)
		return 1
	}
	return m.Run()
}

// ci reports whether the tests run in CI, where nothing may be skipped.
func ci() bool { return os.Getenv("CI") == "true" }

// needBrowser skips t when Chromium is missing: the first test says why,
// the others skip silently, so the package skips with one line.
func needBrowser(t *testing.T) {
	t.Helper()
	if env.skip == "" {
		return
	}
	if skipped.CompareAndSwap(false, true) {
		t.Skip(env.skip)
	}
	t.SkipNow()
}

// build compiles feedbackd and two builds of the app into dir, in
// parallel. The second wasm differs from the first only by a -X flag on
// a variable that does not exist: the linker ignores the flag, but the
// flags are part of the build id the file embeds, so the file (and the
// version the server derives from its hash) differs while staying a
// valid build of the same code.
func build(dir string) error {
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		return err
	}
	env.root = root
	env.feedbackd = filepath.Join(dir, "feedbackd")
	env.webA, env.webB = filepath.Join(dir, "web-a"), filepath.Join(dir, "web-b")
	jobs := []func() error{
		func() error { return goCmd(nil, "build", "-o", env.feedbackd, "./server/cmd/feedbackd") },
		func() error { return buildWasm(env.webA, "") },
		func() error { return buildWasm(env.webB, " -X main.buildNote=b") },
	}
	errs := make([]error, len(jobs))
	var wg sync.WaitGroup
	for i, job := range jobs {
		wg.Go(func() { errs[i] = job() })
	}
	wg.Wait()
	if err := errors.Join(errs...); err != nil {
		return err
	}
	if env.versionA, err = wasmVersion(env.webA); err != nil {
		return err
	}
	if env.versionB, err = wasmVersion(env.webB); err != nil {
		return err
	}
	if env.versionA == env.versionB {
		return fmt.Errorf("the two wasm builds are identical (%s); the update test needs two versions", env.versionA)
	}
	return nil
}

// buildWasm builds the app and the dashboard as `make wasm` does, with a
// faster brotli.
func buildWasm(out, extraLDFlags string) error {
	if err := os.MkdirAll(out, 0o755); err != nil {
		return err
	}
	for name, pkg := range map[string]string{"app.wasm": "./app", "dashboard.wasm": "./app/cmd/dashboard"} {
		wasm := filepath.Join(out, name)
		err := goCmd([]string{"GOOS=js", "GOARCH=wasm"}, "build", "-trimpath", "-gcflags=github.com/feedbackhq/feedback/...=-l", "-ldflags=-s -w"+extraLDFlags, "-o", wasm, pkg)
		if err != nil {
			return err
		}
		if err := goCmd(nil, "run", "./server/cmd/precompress", "-brotli", "5", wasm); err != nil {
			return err
		}
	}
	return nil
}

// goCmd runs the go command in the repository.
func goCmd(extraEnv []string, args ...string) error {
	cmd := exec.Command("go", args...)
	cmd.Dir = env.root
	cmd.Env = append(os.Environ(), extraEnv...)
	if out, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("go %v: %v\n%s", args, err, out)
	}
	return nil
}

// wasmVersion returns the build id the server gives the app.wasm in dir:
// the first 16 hex digits of its SHA-256 (server/http/static.go).
func wasmVersion(dir string) (string, error) {
	f, err := os.Open(filepath.Join(dir, "app.wasm"))
	if err != nil {
		return "", err
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return "", err
	}
	return hex.EncodeToString(h.Sum(nil))[:16], nil
}

// waitUntil polls cond until it holds, and fails t after timeout.
func waitUntil(t *testing.T, what string, timeout time.Duration, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(timeout)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("waited %v for %s", timeout, what)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// cutOff takes the browser offline as a dead uplink: the page and its
// service workers are emulated offline, and the server is stopped. The
// emulation alone lets a request through now and then: with two tests
// at a time, a queued POST reached the server about 75 ms into an
// offline reload although every POST in the page's network log failed
// with ERR_INTERNET_DISCONNECTED (2 package runs in 6). The queue copes
// (the server dedupes by id), but the test must control delivery.
func cutOff(b *browser, s *server) {
	b.t.Helper()
	b.goOffline()
	s.stop()
}

// reconnect starts the server again and gives the browser its network
// back, which fires the online event.
func reconnect(b *browser, s *server) {
	b.t.Helper()
	s.restart(env.webA)
	b.goOnline()
}
