package e2e_test

import (
	"context"
	"encoding/json"
	"fmt"
	"iter"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/cdproto/target"
	"github.com/chromedp/chromedp"
)

// browserTimeout bounds everything one test does in its browser.
const browserTimeout = 3 * time.Minute

// browser is one headless Chromium with a fresh profile and one tab.
type browser struct {
	t   *testing.T
	ctx context.Context // the tab, with the test's deadline

	workers map[target.ID]context.Context // service workers, attached

	mu       sync.Mutex
	console  []string
	requests []string // "METHOD URL", once recordRequests is called
}

// newBrowser starts Chromium for t. It is closed when t ends, and the
// page's console is shown if t failed.
func newBrowser(t *testing.T) *browser {
	t.Helper()
	dir, err := os.MkdirTemp("", "feedback-e2e-chromium-")
	if err != nil {
		t.Fatal(err)
	}
	opts := append(chromedp.DefaultExecAllocatorOptions[:],
		chromedp.ExecPath(chromiumPath), chromedp.UserDataDir(dir),
		chromedp.NoSandbox, chromedp.DisableGPU, chromedp.NoFirstRun,
		chromedp.Flag("disable-quic", true),
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
	)
	actx, acancel := chromedp.NewExecAllocator(context.Background(), opts...)
	bctx, bcancel := chromedp.NewContext(actx)
	if err := chromedp.Do(bctx); err != nil { // starts the browser, with no deadline
		bcancel()
		acancel()
		removeAll(dir)
		t.Fatalf("start chromium: %v", err)
	}
	ctx, cancel := context.WithTimeout(bctx, browserTimeout)
	b := &browser{t: t, ctx: ctx, workers: map[target.ID]context.Context{}}
	go b.collect(chromedp.Console(bctx))
	t.Cleanup(func() {
		if t.Failed() {
			t.Logf("browser console:\n%s", b.consoleText())
		}
		cancel()
		bcancel()
		acancel()
		removeAll(dir)
	})
	return b
}

// removeAll removes a Chromium profile; its helper processes can write
// into it for a moment after the browser stops.
func removeAll(dir string) {
	for range 50 {
		if os.RemoveAll(dir) == nil {
			return
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// collect keeps the page's console messages for a failure report.
func (b *browser) collect(msgs iter.Seq2[chromedp.ConsoleMessage, error]) {
	for m, err := range msgs {
		if err != nil {
			return
		}
		b.mu.Lock()
		b.console = append(b.console, fmt.Sprintf("%s %s:%d %s", m.Type, m.URL, m.Line+1, m))
		b.mu.Unlock()
	}
}

func (b *browser) consoleText() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return strings.Join(b.console, "\n")
}

// do runs steps in the tab and fails the test on an error.
func (b *browser) do(steps ...chromedp.Action[chromedp.Void]) {
	b.t.Helper()
	if err := chromedp.Do(b.ctx, steps...); err != nil {
		b.t.Fatalf("browser: %v", err)
	}
}

// eval evaluates a JavaScript expression in the page, awaiting a promise,
// and decodes its value.
func eval[T any](b *browser, expr string) T {
	b.t.Helper()
	v, err := chromedp.Run(b.ctx, chromedp.Evaluate[T](expr, chromedp.EvalAwaitPromise))
	if err != nil {
		b.t.Fatalf("evaluate %q: %v", expr, err)
	}
	return v
}

// waitFor polls a JavaScript expression (which may be a promise) until it
// is truthy, and fails the test after timeout. It survives navigations
// and reloads, which a chromedp.Poll does not.
func (b *browser) waitFor(what, expr string, timeout time.Duration) {
	b.t.Helper()
	js := fmt.Sprintf("(async () => { try { return !!(await (%s)); } catch (e) { return false; } })()", expr)
	deadline := time.Now().Add(timeout)
	for {
		ctx, cancel := context.WithTimeout(b.ctx, 5*time.Second)
		ok, err := chromedp.Run(ctx, chromedp.Evaluate[bool](js, chromedp.EvalAwaitPromise))
		cancel()
		if err == nil && ok {
			return
		}
		if b.ctx.Err() != nil || time.Now().After(deadline) {
			b.t.Fatalf("waited %v for %s (last error: %v); the page shows:\n%s", timeout, what, err, b.pageText())
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// wasmRunning is true once go-app runs in the page: its loader is gone
// and it has installed its history handler.
const wasmRunning = `!document.getElementById("app-wasm-loader") && typeof window.onpopstate === "function"`

// openWithoutWasm opens url with wasm=false added to its query, so that
// app.js never loads the wasm, and waits until app.js has removed its
// loader.
func (b *browser) openWithoutWasm(url string) {
	b.t.Helper()
	sep := "?"
	if strings.Contains(url, "?") {
		sep = "&"
	}
	b.do(chromedp.Navigate(url + sep + "wasm=false"))
	b.waitFor("app.js to remove the loader", `!document.getElementById("app-wasm-loader")`, 10*time.Second)
}

// waitWasm waits until the app's WebAssembly runs the page.
func (b *browser) waitWasm() {
	b.t.Helper()
	b.waitFor("the wasm to run", wasmRunning, 60*time.Second)
}

// waitServiceWorker waits until the app's service worker is active and
// then reloads, since the worker does not claim the page that installed
// it, and waits until it controls the page and the wasm runs again.
func (b *browser) waitServiceWorker() {
	b.t.Helper()
	b.waitWorkerActive()
	b.do(chromedp.Reload())
	b.waitFor("the service worker to control the page", `navigator.serviceWorker.controller`, 30*time.Second)
	b.waitWasm()
}

// waitWorkerActive waits until the app's service worker is installed,
// its cache filled, and active; it controls only pages loaded after.
func (b *browser) waitWorkerActive() {
	b.t.Helper()
	b.waitFor("the service worker to be active",
		`navigator.serviceWorker.getRegistration().then((r) => !!r && !!r.active && r.active.state === "activated")`, 60*time.Second)
}

// setNetwork sets what the tab and its service workers can reach, and
// what navigator.onLine says (a change fires the online or offline
// event). rules without a URL pattern apply to every request.
//
// The conditions are set on each service worker's own session as well:
// EmulateOfflineServiceWorker on the page's session alone leaves the
// worker's fetches on the network (measured with Chromium 156: an
// "offline" reload went through the worker to the live server).
func (b *browser) setNetwork(offline bool, rules ...*network.Conditions) {
	b.t.Helper()
	if rules == nil {
		rules = []*network.Conditions{}
	}
	params := network.EmulateNetworkConditionsByRuleParams{EmulateOfflineServiceWorker: &offline, MatchedNetworkConditions: rules}
	for _, ctx := range append([]context.Context{b.ctx}, b.serviceWorkers()...) {
		if _, err := chromedp.Call(ctx, network.EmulateNetworkConditionsByRule, params); err != nil {
			b.t.Fatalf("Network.emulateNetworkConditionsByRule: %v", err)
		}
	}
	_, err := chromedp.Call(b.ctx, network.OverrideNetworkState, network.OverrideNetworkStateParams{
		Offline: offline, DownloadThroughput: -1, UploadThroughput: -1})
	if err != nil {
		b.t.Fatalf("Network.overrideNetworkState: %v", err)
	}
}

// serviceWorkers returns a context attached to each service worker of the
// browser, attaching to new ones. Their cancellation only detaches.
func (b *browser) serviceWorkers() []context.Context {
	b.t.Helper()
	infos, err := chromedp.Targets(b.ctx)
	if err != nil {
		b.t.Fatalf("list targets: %v", err)
	}
	var out []context.Context
	for _, info := range infos {
		if info.Type != "service_worker" {
			continue
		}
		ctx, ok := b.workers[info.TargetID]
		if !ok {
			var cancel context.CancelFunc
			ctx, cancel = chromedp.NewContext(b.ctx, chromedp.WithTargetID(info.TargetID), chromedp.WithDetachOnCancel())
			b.t.Cleanup(cancel)
			b.workers[info.TargetID] = ctx
		}
		out = append(out, ctx)
	}
	return out
}

// goOffline cuts the tab and its service worker off the network.
func (b *browser) goOffline() {
	b.t.Helper()
	b.setNetwork(true, &network.Conditions{Offline: true})
	b.waitFor("navigator.onLine to be false", `!navigator.onLine`, 5*time.Second)
}

// goOnline gives the network back.
func (b *browser) goOnline() {
	b.t.Helper()
	b.setNetwork(false)
	b.waitFor("navigator.onLine to be true", `navigator.onLine`, 5*time.Second)
}

// queue is what the app's IndexedDB outbox holds.
type queue struct {
	Pending int `json:"pending"` // submissions waiting to be sent
	Dead    int `json:"dead"`    // submissions the server refused
}

// queueJS counts the records of the app's IndexedDB database "feedback"
// (app/browser/idb.go). It never creates the database: opening a missing
// one would create it without its stores.
const queueJS = `(async () => {
  if (!(await indexedDB.databases()).some((d) => d.name === "feedback")) return {pending: -1, dead: -1};
  const db = await new Promise((ok, fail) => {
    const r = indexedDB.open("feedback");
    r.onsuccess = () => ok(r.result);
    r.onerror = () => fail(r.error);
  });
  const count = (s) => new Promise((ok, fail) => {
    const r = db.transaction(s).objectStore(s).count();
    r.onsuccess = () => ok(r.result);
    r.onerror = () => fail(r.error);
  });
  try {
    return {pending: await count("outbox"), dead: await count("dead")};
  } finally {
    db.close();
  }
})()`

// queue reads the outbox from IndexedDB.
func (b *browser) queue() queue {
	b.t.Helper()
	return eval[queue](b, queueJS)
}

// waitQueue waits until the outbox holds pending submissions and no dead
// letters.
func (b *browser) waitQueue(pending int, timeout time.Duration) {
	b.t.Helper()
	b.waitFor(fmt.Sprintf("%d submissions in the IndexedDB outbox", pending),
		fmt.Sprintf(`%s.then((q) => q.pending === %d && q.dead === 0)`, queueJS, pending), timeout)
}

// text returns the visible text of the page.
func (b *browser) text() string {
	b.t.Helper()
	return eval[string](b, `document.body.innerText`)
}

// waitText waits until the page shows s.
func (b *browser) waitText(s string, timeout time.Duration) {
	b.t.Helper()
	b.waitFor(fmt.Sprintf("the page to show %q", s), "document.body.innerText.includes("+jsString(s)+")", timeout)
}

// pageText returns the page's text for a failure message, or why it
// cannot.
func (b *browser) pageText() string {
	ctx, cancel := context.WithTimeout(b.ctx, 5*time.Second)
	defer cancel()
	text, err := chromedp.Run(ctx, chromedp.Evaluate[string](`location.href + "\n" + document.body.innerText`))
	if err != nil {
		return err.Error()
	}
	return text
}

// jsString returns s as a JavaScript string literal.
func jsString(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

// recordRequests starts recording the requests the page sends, for
// requested.
func (b *browser) recordRequests() {
	b.t.Helper()
	err := chromedp.Listen(b.ctx, func(ev any) {
		if ev, ok := ev.(*network.EventRequestWillBeSent); ok {
			b.mu.Lock()
			b.requests = append(b.requests, ev.Request.Method+" "+ev.Request.URL)
			b.mu.Unlock()
		}
	})
	if err != nil {
		b.t.Fatal(err)
	}
}

// requested counts the recorded requests "METHOD URL".
func (b *browser) requested(methodURL string) int {
	b.mu.Lock()
	defer b.mu.Unlock()
	n := 0
	for _, r := range b.requests {
		if r == methodURL {
			n++
		}
	}
	return n
}

// phone makes the tab a phone's screen, 390 by 844 CSS pixels.
func (b *browser) phone() {
	b.t.Helper()
	b.do(chromedp.EmulateViewport(390, 844, chromedp.EmulateMobile, chromedp.EmulateTouch, chromedp.EmulatePortrait))
}

// overflowJS lists what does not fit the width of the screen: the page
// scrolling sideways, an element reaching past either edge, a control
// closer than 4 px to an edge (cut off by a rounded screen or a case),
// and a choice or button whose content spills out of its box.
const overflowJS = `(() => {
  const vw = document.documentElement.clientWidth, bad = [];
  const name = (el) => el.tagName.toLowerCase() + (el.id ? "#" + el.id : "") + " " + JSON.stringify(el.textContent.trim().slice(0, 24));
  if (document.documentElement.scrollWidth > vw) bad.push("the page is " + document.documentElement.scrollWidth + " px wide");
  for (const el of document.querySelectorAll("body *")) {
    const r = el.getBoundingClientRect();
    if (r.width > 0 && (r.left < -0.5 || r.right > vw + 0.5)) bad.push(name(el) + " spans " + Math.round(r.left) + " to " + Math.round(r.right));
  }
  for (const el of document.querySelectorAll("a, button, label, textarea, input:not([type=radio])")) {
    const r = el.getBoundingClientRect();
    if (r.width > 0 && (r.left < 4 || r.right > vw - 4)) bad.push(name(el) + " touches the edge: " + Math.round(r.left) + " to " + Math.round(r.right));
  }
  for (const el of document.querySelectorAll(".choice label, button")) {
    if (el.scrollWidth > el.clientWidth) bad.push(name(el) + " is " + el.scrollWidth + " px wide in a box of " + el.clientWidth);
  }
  return bad;
})()`

// checkFits fails t for everything on the page that does not fit the
// width of the screen.
func checkFits(t *testing.T, b *browser, page string) {
	t.Helper()
	for _, bad := range eval[[]string](b, overflowJS) {
		t.Errorf("%s: %s", page, bad)
	}
}
