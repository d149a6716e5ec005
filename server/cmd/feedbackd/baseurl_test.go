package main

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestBaseURLRefusals starts the built feedbackd with base URLs that
// browsers would not sign in at: it exits with a non-zero status and one
// line on stderr that names the flag to use, before it touches the
// database. The base URLs it accepts start it.
func TestBaseURLRefusals(t *testing.T) {
	bin := buildFeedbackd(t)
	for _, c := range []struct {
		env        []string
		args       []string
		want       []string
		wantStatus int
	}{
		{nil, []string{"--base-url", "http://feedback.example.com"}, []string{"--tls-proxy", "https://", "FEEDBACK_TLS_PROXY"}, 1},
		{[]string{"FEEDBACK_BASE_URL=http://192.0.2.10:8080"}, nil, []string{"--tls-proxy", "not loopback"}, 1},
		{nil, []string{"--base-url", "https://feedback.example.com"}, []string{"--tls-proxy", "plain http"}, 1},
		{[]string{"FEEDBACK_TLS_PROXY=true"}, []string{"--base-url", "http://feedback.example.com"}, []string{"--base-url", "https://"}, 1},
		{nil, []string{"--tls-proxy", "--base-url", "http://localhost:8080"}, []string{"--base-url", "https://"}, 1},
		{[]string{"FEEDBACK_TLS_PROXY=true"}, nil, []string{"--base-url", "https://"}, 1},
		{nil, []string{"--base-url", "feedback.example.com"}, []string{"--base-url", "absolute"}, 1},
	} {
		db := filepath.Join(t.TempDir(), "feedback.db")
		ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second) // a start that is not refused
		defer cancel()
		cmd := exec.CommandContext(ctx, bin, append([]string{"serve", "--addr", "127.0.0.1:0"}, c.args...)...)
		cmd.Env = append(os.Environ(), append(c.env, "DATABASE_URL="+db)...)
		var stderr strings.Builder
		cmd.Stderr = &stderr
		err := cmd.Run()
		var exit *exec.ExitError
		line := strings.TrimSuffix(stderr.String(), "\n")
		if !errors.As(err, &exit) || exit.ExitCode() != c.wantStatus || strings.Contains(line, "\n") {
			t.Errorf("%v %v: %v, stderr %q; want exit status %d and one line", c.env, c.args, err, line, c.wantStatus)
		}
		for _, w := range c.want {
			if !strings.Contains(line, w) {
				t.Errorf("%v %v: stderr %q does not say %q", c.env, c.args, line, w)
			}
		}
		if _, err := os.Stat(db); err == nil {
			t.Errorf("%v %v: the refused start created the database", c.env, c.args)
		}
	}
	for _, env := range [][]string{
		{"FEEDBACK_BASE_URL=http://127.0.0.2:8080"},
		{"FEEDBACK_BASE_URL=http://[::1]:8080"},
		{"FEEDBACK_BASE_URL=http://LOCALHOST:8080"},
		{"FEEDBACK_BASE_URL=https://feedback.example.com", "FEEDBACK_TLS_PROXY=true"},
	} {
		startFeedbackd(t, bin, append(env, "DATABASE_URL="+filepath.Join(t.TempDir(), "feedback.db")))
	}
}
