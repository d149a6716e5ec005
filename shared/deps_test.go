// Package shared_test guards the rule that shared/ stays browser-safe: it
// compiles for GOOS=js GOARCH=wasm and depends on nothing server-only.
package shared_test

import (
	"os"
	"os/exec"
	"slices"
	"strings"
	"testing"
)

// banned lists import path prefixes that must never reach shared/.
var banned = []string{
	"database/sql",
	"github.com/jackc/",
	"modernc.org/sqlite",
	"github.com/go-chi/",
	"github.com/pressly/goose",
	"github.com/feedbackhq/feedback/server",
	"github.com/feedbackhq/feedback/app",
}

func TestSharedDependencies(t *testing.T) {
	cmd := exec.Command("go", "list", "-deps", "./...")
	cmd.Env = append(os.Environ(), "GOOS=js", "GOARCH=wasm")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("go list -deps for js/wasm: %v\n%s", err, out)
	}
	deps := strings.Fields(string(out))
	if len(deps) < 10 {
		t.Fatalf("go list returned only %d packages; the check would prove nothing", len(deps))
	}
	for _, d := range deps {
		for _, b := range banned {
			if d == b || strings.HasPrefix(d, b+"/") || strings.HasPrefix(d, b) && strings.HasSuffix(b, "/") {
				t.Errorf("shared/ depends on %s (banned prefix %s)", d, b)
			}
		}
	}
}

// TestClientLinksNoNetHTTPInTheBrowser: the API client sends through
// window.fetch in the browser; net/http would add 5 MB to the wasm.
func TestClientLinksNoNetHTTPInTheBrowser(t *testing.T) {
	cmd := exec.Command("go", "list", "-deps", "./client")
	cmd.Env = append(os.Environ(), "GOOS=js", "GOARCH=wasm")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("go list -deps for js/wasm: %v\n%s", err, out)
	}
	deps := strings.Fields(string(out))
	if !slices.Contains(deps, "syscall/js") {
		t.Fatalf("shared/client does not use syscall/js for js/wasm; the check would prove nothing:\n%s", out)
	}
	for _, d := range deps {
		if d == "net/http" || strings.HasPrefix(d, "net/http/") {
			t.Errorf("shared/client links %s in the browser", d)
		}
	}
}
