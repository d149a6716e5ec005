//go:build js && wasm

package browser

import (
	"context"
	"fmt"
	"sync/atomic"
	"syscall/js"
	"time"

	"github.com/feedbackhq/feedback/app/offline"
)

var _ offline.Sender = Fetch{}

// Send implements offline.Sender. Call it from a goroutine, not a
// js.FuncOf callback.
func (f Fetch) Send(ctx context.Context, method, url string, headers map[string]string, body []byte) (_ offline.Response, err error) {
	defer catch(&err)
	timeout := f.Timeout
	if timeout <= 0 {
		timeout = DefaultTimeout
	}
	ctl := js.Global().Get("AbortController").New()
	stop := context.AfterFunc(ctx, func() { ctl.Call("abort") })
	defer stop()
	var timedOut atomic.Bool
	timer := time.AfterFunc(timeout, func() {
		timedOut.Store(true)
		ctl.Call("abort")
	})
	defer timer.Stop()
	await := func(p js.Value) (js.Value, error) {
		s := <-settle(p) // an abort rejects p at once
		switch {
		case s.err == nil:
			return s.v, nil
		case ctx.Err() != nil:
			return js.Undefined(), ctx.Err()
		case timedOut.Load():
			return js.Undefined(), fmt.Errorf("browser: fetch %s: no answer in %v", url, timeout)
		}
		return js.Undefined(), fmt.Errorf("browser: fetch %s: %w", url, s.err)
	}

	res, err := await(js.Global().Call("fetch", url, fetchOptions(method, headers, body, ctl)))
	if err != nil {
		return offline.Response{}, err
	}
	h := res.Get("headers")
	out := offline.Response{Status: res.Get("status").Int(),
		Reset: offline.ResetAt(time.Now(), header(h, "Retry-After"), header(h, "X-RateLimit-Reset"))}
	buf, err := await(res.Call("arrayBuffer"))
	if err != nil {
		return offline.Response{}, err
	}
	u8 := js.Global().Get("Uint8Array").New(buf)
	out.Body = make([]byte, u8.Length())
	js.CopyBytesToGo(out.Body, u8)
	return out, nil
}

func fetchOptions(method string, headers map[string]string, body []byte, ctl js.Value) map[string]any {
	h := make(map[string]any, len(headers))
	for k, v := range headers {
		h[k] = v
	}
	opts := map[string]any{"method": method, "headers": h, "credentials": "same-origin",
		"redirect": "error", "cache": "no-store", "signal": ctl.Get("signal")}
	if body != nil {
		u8 := js.Global().Get("Uint8Array").New(len(body))
		js.CopyBytesToJS(u8, body)
		opts["body"] = u8
	}
	return opts
}

// header returns the value of header name, or "".
func header(h js.Value, name string) string {
	if v := h.Call("get", name); v.Type() == js.TypeString {
		return v.String()
	}
	return ""
}
