//go:build js && wasm

package client

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync/atomic"
	"syscall/js"
	"time"
)

// DefaultTransport sends the requests of a [Client] whose Transport is
// nil: in the browser, window.fetch.
var DefaultTransport Transport = Fetch{}

// DefaultTimeout is how long a [Fetch] waits for an answer unless its
// Timeout says otherwise.
const DefaultTimeout = 15 * time.Second

// Fetch is a [Transport] on window.fetch: same-origin credentials (the
// session cookie), no redirects (a redirected POST counts as a network
// error rather than a delivery), no cache, and an abort after Timeout. A
// rejected fetch is a network error. The zero value is ready to use.
//
// RoundTrip waits on a channel for the browser's answer: call it from a
// goroutine (go-app's ctx.Async), never inside a js.FuncOf callback such
// as an event handler's synchronous part, whose answer could only arrive
// after it returns.
type Fetch struct {
	// Timeout bounds the whole request, answer body included; zero means
	// DefaultTimeout.
	Timeout time.Duration
}

// RoundTrip implements [Transport].
func (f Fetch) RoundTrip(ctx context.Context, r *Request) (_ *Response, err error) {
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
		v, err := settle(p) // an abort rejects p at once
		switch {
		case err == nil:
			return v, nil
		case ctx.Err() != nil:
			return js.Undefined(), ctx.Err()
		case timedOut.Load():
			return js.Undefined(), fmt.Errorf("client: fetch %s: no answer in %v", r.URL, timeout)
		}
		return js.Undefined(), fmt.Errorf("client: fetch %s: %w", r.URL, err)
	}

	res, err := await(js.Global().Call("fetch", r.URL, fetchOptions(r, ctl)))
	if err != nil {
		return nil, err
	}
	out := &Response{Status: res.Get("status").Int(), Header: headers(res.Get("headers"))}
	buf, err := await(res.Call("arrayBuffer"))
	if err != nil {
		return nil, err
	}
	u8 := js.Global().Get("Uint8Array").New(buf)
	out.Body = make([]byte, u8.Length())
	js.CopyBytesToGo(out.Body, u8)
	return out, nil
}

func fetchOptions(r *Request, ctl js.Value) map[string]any {
	h := make(map[string]any, len(r.Header))
	for k, v := range r.Header {
		h[k] = v
	}
	opts := map[string]any{"method": r.Method, "headers": h, "credentials": "same-origin",
		"redirect": "error", "cache": "no-store", "signal": ctl.Get("signal")}
	if r.Body != nil {
		u8 := js.Global().Get("Uint8Array").New(len(r.Body))
		js.CopyBytesToJS(u8, r.Body)
		opts["body"] = u8
	}
	return opts
}

// headers copies a fetch Headers object; its names are lower-case.
func headers(h js.Value) Header {
	out := Header{}
	it := h.Call("entries")
	for {
		next := it.Call("next")
		if next.Get("done").Bool() {
			return out
		}
		kv := next.Get("value")
		out[strings.ToLower(kv.Index(0).String())] = kv.Index(1).String()
	}
}

// settle waits for the promise p and returns its value or its rejection.
// The callbacks release themselves.
func settle(p js.Value) (js.Value, error) {
	type settled struct {
		v   js.Value
		err error
	}
	ch := make(chan settled, 1)
	var ok, fail js.Func
	ok = js.FuncOf(func(_ js.Value, args []js.Value) any {
		ok.Release()
		fail.Release()
		ch <- settled{v: args[0]}
		return nil
	})
	fail = js.FuncOf(func(_ js.Value, args []js.Value) any {
		ok.Release()
		fail.Release()
		ch <- settled{err: errors.New(js.Global().Get("String").Invoke(args[0]).String())}
		return nil
	})
	p.Call("then", ok, fail)
	s := <-ch
	return s.v, s.err
}

// catch turns a JavaScript exception thrown by a syscall/js call into
// *err; use it as defer catch(&err).
func catch(err *error) {
	r := recover()
	if r == nil {
		return
	}
	if e, ok := r.(js.Error); ok {
		*err = errors.New(js.Global().Get("String").Invoke(e.Value).String())
		return
	}
	panic(r)
}
