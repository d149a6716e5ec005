package e2e_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/chromedp/chromedp"
)

// shotsDir is where the browser tests write their screenshots, for
// people to look at: $FEEDBACK_SCREENSHOTS (make screenshots sets
// docs/screenshots), else /tmp/feedback-shots.
func shotsDir() string {
	if d := os.Getenv("FEEDBACK_SCREENSHOTS"); d != "" {
		return d
	}
	return filepath.Join(os.TempDir(), "feedback-shots")
}

// saveShot writes png as name.png in shotsDir.
func saveShot(t *testing.T, name string, png []byte) {
	t.Helper()
	if err := os.MkdirAll(shotsDir(), 0o755); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(shotsDir(), name+".png")
	if err := os.WriteFile(path, png, 0o644); err != nil {
		t.Fatal(err)
	}
	t.Logf("screenshot: %s", path)
}

// pageShots saves screenshots of the page at a desktop's size and at a
// phone's (name-1280, name-390), scrolled to the element id ("" for the
// top), and checks both with axe-core and for fitting the width.
func pageShots(t *testing.T, b *browser, axe, name, id string) {
	t.Helper()
	sizes := []struct {
		suffix string
		set    func()
	}{
		{"1280", func() { b.do(chromedp.EmulateViewport(1280, 800)) }},
		{"390", b.phone},
	}
	for _, size := range sizes {
		size.set()
		b.do(chromedp.Evaluate[chromedp.Void](`window.scrollTo(0, 0); document.getElementById(` + jsString(id) + `)?.scrollIntoView()`))
		png, err := chromedp.Run(b.ctx, chromedp.CaptureScreenshot())
		if err != nil {
			t.Fatalf("screenshot: %v", err)
		}
		saveShot(t, name+"-"+size.suffix, png)
		checkFits(t, b, name+" at "+size.suffix+" px")
		checkA11y(t, b, axe, name+" at "+size.suffix+" px")
	}
	b.do(chromedp.EmulateViewport(1280, 800))
}
