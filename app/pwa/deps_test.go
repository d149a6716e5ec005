package pwa_test

import (
	"os/exec"
	"strings"
	"testing"
)

const module = "github.com/feedbackhq/feedback"

// notOnServer lists the app packages the server must never link: they
// run only in the browser, where pwa wires them.
var notOnServer = []string{module + "/app/kiosk", module + "/app/offline", module + "/app/browser"}

// goList runs go list with args and returns its output's lines.
func goList(t *testing.T, args ...string) []string {
	t.Helper()
	out, err := exec.Command("go", append([]string{"list"}, args...)...).CombinedOutput()
	if err != nil {
		t.Fatalf("go list %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	lines := strings.Split(strings.TrimSpace(string(out)), "\n")
	if len(lines) < 10 {
		t.Fatalf("go list returned only %d lines; the check would prove nothing", len(lines))
	}
	return lines
}

// TestServerLinksNoBrowserCode: feedbackd prerenders the pages but links
// neither the kiosk nor the offline queue nor the browser bindings.
func TestServerLinksNoBrowserCode(t *testing.T) {
	deps := goList(t, "-deps", module+"/server/cmd/feedbackd")
	for _, d := range deps {
		for _, b := range notOnServer {
			if d == b || strings.HasPrefix(d, b+"/") {
				t.Errorf("feedbackd links %s", d)
			}
		}
	}
}

// TestServerEntersThroughTheDoor: no package under server/ imports a
// package of app/ other than app/pwa (tests may drive the offline queue,
// as the kiosk load benchmark does, and are not checked).
func TestServerEntersThroughTheDoor(t *testing.T) {
	lines := goList(t, "-f", "{{.ImportPath}}{{range .Imports}} {{.}}{{end}}", module+"/server/...")
	for _, l := range lines {
		f := strings.Fields(l)
		for _, imp := range f[1:] {
			if strings.HasPrefix(imp, module+"/app/") && imp != module+"/app/pwa" || imp == module+"/app" {
				t.Errorf("%s imports %s; the server reaches the app only through app/pwa", f[0], imp)
			}
		}
	}
}
