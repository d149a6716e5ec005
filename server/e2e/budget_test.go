package e2e_test

import (
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/chromedp"

	"github.com/feedbackhq/feedback/shared/feedback"
)

// firstVisitBudget is what a visitor's first page may transfer before the
// wasm: the product promises a usable form within 50 KB.
const firstVisitBudget = 50_000

// netlog is the browser's own record of the tab's requests.
type netlog struct {
	mu       sync.Mutex
	requests map[network.RequestID]*netEntry
}

type netEntry struct {
	url      string
	worker   bool    // sent by a worker, not by the page
	fromSW   bool    // answered by the service worker
	done     bool    // finished or failed
	received float64 // encodedDataLength: headers and body as transferred
}

// logNetwork starts recording the tab's requests.
func logNetwork(b *browser) *netlog {
	b.t.Helper()
	l := &netlog{requests: map[network.RequestID]*netEntry{}}
	err := chromedp.Listen(b.ctx, func(ev any) {
		l.mu.Lock()
		defer l.mu.Unlock()
		switch ev := ev.(type) {
		case *network.EventRequestWillBeSent:
			l.requests[ev.RequestID] = &netEntry{url: ev.Request.URL, worker: ev.LoaderID == ""}
		case *network.EventResponseReceived:
			if e := l.requests[ev.RequestID]; e != nil {
				e.fromSW = ev.Response.FromServiceWorker
			}
		case *network.EventLoadingFinished:
			if e := l.requests[ev.RequestID]; e != nil {
				e.done, e.received = true, ev.EncodedDataLength
			}
		case *network.EventLoadingFailed:
			if e := l.requests[ev.RequestID]; e != nil {
				e.done = true
			}
		}
	})
	if err != nil {
		b.t.Fatal(err)
	}
	return l
}

// idle reports whether every request seen has finished or failed.
func (l *netlog) idle() bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	for _, e := range l.requests {
		if !e.done {
			return false
		}
	}
	return true
}

// entries returns a copy of the finished requests, by URL.
func (l *netlog) entries() []netEntry {
	l.mu.Lock()
	defer l.mu.Unlock()
	var out []netEntry
	for _, e := range l.requests {
		if e.done {
			out = append(out, *e)
		}
	}
	slices.SortFunc(out, func(a, b netEntry) int { return strings.Compare(a.url, b.url) })
	return out
}

// TestFirstVisitBytes loads a visitor page on a cold profile and sums what
// the browser transferred for everything but the wasm: the form must be
// usable before the wasm, within the first-visit budget.
func TestFirstVisitBytes(t *testing.T) {
	needBrowser(t)
	t.Parallel()
	s, b := startServer(t), newBrowser(t)
	log := logNetwork(b)

	release := holdWasm(b)
	b.do(chromedp.Navigate(s.visitorURL(feedback.FormHygiene)),
		chromedp.WaitVisible(chromedp.CSS(submitButton)), chromedp.WaitEnabled(chromedp.CSS(submitButton)))
	if eval[bool](b, wasmRunning) {
		t.Fatal("the wasm runs although its download is held back")
	}
	if n := eval[int](b, `document.querySelectorAll('#feedback-form input[name="rating"]').length`); n != 5 {
		t.Fatalf("the prerendered form has %d rating choices, want 5", n)
	}
	release()
	b.waitWasm()
	b.waitWorkerActive()
	waitUntil(t, "the network to be idle", 30*time.Second, log.idle)

	var total float64
	var lines []string
	for _, e := range log.entries() {
		path := strings.TrimPrefix(e.url, s.base)
		switch {
		case path == "/web/app.wasm":
		case e.worker || e.fromSW:
			lines = append(lines, fmt.Sprintf("  %7.0f  %s (service worker, not counted)", e.received, path))
		default:
			total += e.received
			lines = append(lines, fmt.Sprintf("  %7.0f  %s", e.received, path))
		}
	}
	t.Logf("requests of the first visit:\n%s", strings.Join(lines, "\n"))
	t.Logf("first-visit bytes before the wasm: %.0f", total)
	// The interception that held the wasm back spoils the network log's
	// count for that one request; Resource Timing has its body size.
	wasm := eval[int](b, `performance.getEntriesByName(location.origin + "/web/app.wasm").reduce((n, e) => n + e.encodedBodySize, 0)`)
	t.Logf("wasm transfer: %d bytes (brotli body)", wasm)
	if wasm < 100_000 {
		t.Errorf("the wasm download was %d bytes; the page did not load the app", wasm)
	}
	if total == 0 || total > firstVisitBudget {
		t.Errorf("the first visit transferred %.0f bytes before the wasm, budget %d", total, firstVisitBudget)
	}
}
