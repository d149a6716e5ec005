//go:build js && wasm

package browser

import (
	"context"
	"strings"
	"syscall/js"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/feedbackhq/feedback/app/offline"
)

// The wasmbrowsertest server answers /wasm_exec.js and, for other paths,
// 200 with an empty body.
func TestFetchOwnOrigin(t *testing.T) {
	ctx := context.Background()
	res, err := Fetch{}.Send(ctx, "GET", "/wasm_exec.js", nil, nil)
	if err != nil || res.Status != 200 || !strings.Contains(string(res.Body), "Go") {
		t.Errorf("GET /wasm_exec.js = %d %.40q, %v; want 200 and the script", res.Status, res.Body, err)
	}
	res, err = Fetch{}.Send(ctx, "POST", "/q/abc", map[string]string{"Content-Type": "application/json"}, []byte(`{"id":"x"}`))
	if err != nil || res.Status != 200 || len(res.Body) != 0 || !res.Reset.IsZero() {
		t.Errorf("POST /q/abc = %+v, %v; want 200, empty", res, err)
	}
}

func TestFetchNetworkError(t *testing.T) {
	_, err := Fetch{}.Send(context.Background(), "POST", "http://127.0.0.1:9/q/abc", nil, []byte(`{}`))
	if err == nil {
		t.Fatal("fetch of a closed port succeeded")
	}
	t.Logf("network error: %v", err)
}

// fakeFetch replaces window.fetch with fn (a JavaScript function
// expression) until the test ends.
func fakeFetch(t *testing.T, fn string) {
	real := js.Global().Get("fetch")
	js.Global().Set("fetch", eval(fn))
	t.Cleanup(func() { js.Global().Set("fetch", real) })
}

func TestFetchRequestAndRateLimit(t *testing.T) {
	fakeFetch(t, `async (url, o) => {
		window.__sent = { url, method: o.method, credentials: o.credentials, redirect: o.redirect,
			type: o.headers["Content-Type"], auth: o.headers["Authorization"],
			body: new TextDecoder().decode(o.body) };
		return new Response('{"code":"rate_limited"}', { status: 429,
			headers: { "Retry-After": "30", "X-RateLimit-Reset": "1795000000" } });
	}`)
	before := time.Now()
	res, err := Fetch{}.Send(context.Background(), "POST", "/kiosk/sync",
		map[string]string{"Content-Type": "application/json", "Authorization": "Bearer fbkk_x"}, []byte(`{"submissions":[]}`))
	if err != nil {
		t.Fatal(err)
	}
	if res.Status != 429 || string(res.Body) != `{"code":"rate_limited"}` {
		t.Errorf("response = %d %s", res.Status, res.Body)
	}
	if wait := res.Reset.Sub(before); wait < 29*time.Second || wait > 31*time.Second {
		t.Errorf("Reset in %v; want 30 s from Retry-After", wait)
	}
	sent := js.Global().Get("__sent")
	got := map[string]string{}
	for _, k := range []string{"url", "method", "credentials", "redirect", "type", "auth", "body"} {
		got[k] = sent.Get(k).String()
	}
	want := map[string]string{"url": "/kiosk/sync", "method": "POST", "credentials": "same-origin", "redirect": "error",
		"type": "application/json", "auth": "Bearer fbkk_x", "body": `{"submissions":[]}`}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("fetch call (-want +got):\n%s", diff)
	}
}

func TestFetchAbort(t *testing.T) {
	fakeFetch(t, `(url, o) => new Promise((resolve, reject) =>
		o.signal.addEventListener("abort", () => reject(new DOMException("aborted", "AbortError"))))`)
	t.Run("timeout", func(t *testing.T) {
		start := time.Now()
		_, err := Fetch{Timeout: 50 * time.Millisecond}.Send(context.Background(), "POST", "/q/abc", nil, nil)
		if err == nil || !strings.Contains(err.Error(), "no answer in 50ms") || time.Since(start) > 5*time.Second {
			t.Errorf("Send = %v after %v; want a timeout after 50ms", err, time.Since(start))
		}
	})
	t.Run("context", func(t *testing.T) {
		ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
		defer cancel()
		if _, err := (Fetch{}).Send(ctx, "POST", "/q/abc", nil, nil); err != context.DeadlineExceeded {
			t.Errorf("Send = %v; want the context's error", err)
		}
	})
}

// TestQueueInBrowser runs the queue on IndexedDB and fetch.
func TestQueueInBrowser(t *testing.T) {
	fakeFetch(t, `async (url, o) => new Response("{}", { status: url === "/q/bad" ? 422 : 201 })`)
	ctx := context.Background()
	db := tempDB(t)
	q := offline.New(db, Fetch{})
	for i, u := range []string{"/q/ok", "/q/bad", "/q/ok"} {
		it := offline.Item{ID: string(rune('a' + i)), Kind: offline.KindVisitor, URL: u, Body: []byte(`{}`),
			Added: time.Unix(int64(i), 0)}
		if err := q.Add(ctx, it); err != nil {
			t.Fatal(err)
		}
	}
	rep, err := q.Flush(ctx)
	if err != nil || rep.Removed != 2 || rep.Dead != 1 {
		t.Errorf("Flush = %+v, %v; want 2 removed and 1 dead", rep, err)
	}
	st, _ := q.Stats(ctx)
	if st.Pending != 0 || st.Dead != 1 {
		t.Errorf("Stats = %+v", st)
	}
}
