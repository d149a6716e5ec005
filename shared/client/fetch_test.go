//go:build js && wasm

package client

import (
	"context"
	"strings"
	"syscall/js"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// send sends one request through f.
func send(ctx context.Context, f Fetch, method, url string, header map[string]string, body []byte) (*Response, error) {
	return f.RoundTrip(ctx, &Request{Method: method, URL: url, Header: header, Body: body})
}

func eval(expr string) js.Value {
	return js.Global().Get("Function").New("return (" + expr + ");").Invoke()
}

// The wasmbrowsertest server answers /wasm_exec.js and, for other paths,
// 200 with an empty body.
func TestFetchOwnOrigin(t *testing.T) {
	ctx := context.Background()
	res, err := send(ctx, Fetch{}, "GET", "/wasm_exec.js", nil, nil)
	if err != nil || res.Status != 200 || !strings.Contains(string(res.Body), "Go") {
		t.Errorf("GET /wasm_exec.js = %d %.40q, %v; want 200 and the script", res.Status, res.Body, err)
	}
	res, err = send(ctx, Fetch{}, "POST", "/q/abc", map[string]string{"Content-Type": "application/json"}, []byte(`{"id":"x"}`))
	if err != nil || res.Status != 200 || len(res.Body) != 0 || res.Header.Get("Retry-After") != "" {
		t.Errorf("POST /q/abc = %+v, %v; want 200, empty", res, err)
	}
}

func TestFetchNetworkError(t *testing.T) {
	_, err := send(context.Background(), Fetch{}, "POST", "http://127.0.0.1:9/q/abc", nil, []byte(`{}`))
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

func TestFetchRequestAndHeaders(t *testing.T) {
	fakeFetch(t, `async (url, o) => {
		window.__sent = { url, method: o.method, credentials: o.credentials, redirect: o.redirect,
			type: o.headers["Content-Type"], auth: o.headers["Authorization"],
			body: new TextDecoder().decode(o.body) };
		return new Response('{"code":"rate_limited"}', { status: 429,
			headers: { "Retry-After": "30", "X-RateLimit-Reset": "1795000000" } });
	}`)
	res, err := send(context.Background(), Fetch{}, "POST", "/kiosk/sync",
		map[string]string{"Content-Type": "application/json", "Authorization": "Bearer fbkk_x"}, []byte(`{"submissions":[]}`))
	if err != nil {
		t.Fatal(err)
	}
	if res.Status != 429 || string(res.Body) != `{"code":"rate_limited"}` {
		t.Errorf("response = %d %s", res.Status, res.Body)
	}
	if res.Header.Get("Retry-After") != "30" || res.Header.Get("x-ratelimit-reset") != "1795000000" {
		t.Errorf("headers = %v; want Retry-After and X-RateLimit-Reset", res.Header)
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
		_, err := send(context.Background(), Fetch{Timeout: 50 * time.Millisecond}, "POST", "/q/abc", nil, nil)
		if err == nil || !strings.Contains(err.Error(), "no answer in 50ms") || time.Since(start) > 5*time.Second {
			t.Errorf("Send = %v after %v; want a timeout after 50ms", err, time.Since(start))
		}
	})
	t.Run("context", func(t *testing.T) {
		ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
		defer cancel()
		if _, err := send(ctx, Fetch{}, "POST", "/q/abc", nil, nil); err != context.DeadlineExceeded {
			t.Errorf("Send = %v; want the context's error", err)
		}
	})
}
