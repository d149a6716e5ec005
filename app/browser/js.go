//go:build js && wasm

package browser

import (
	"context"
	"errors"
	"syscall/js"
)

// settled is the outcome of a promise or of an IndexedDB request.
type settled struct {
	v   js.Value
	err error
}

// settle returns a channel receiving p's outcome. The callbacks release
// themselves, so the channel may be abandoned.
func settle(p js.Value) <-chan settled {
	ch := make(chan settled, 1)
	var ok, fail js.Func
	ok = js.FuncOf(func(_ js.Value, args []js.Value) any {
		ok.Release()
		fail.Release()
		ch <- settled{v: arg(args)}
		return nil
	})
	fail = js.FuncOf(func(_ js.Value, args []js.Value) any {
		ok.Release()
		fail.Release()
		ch <- settled{err: jsError(arg(args))}
		return nil
	})
	p.Call("then", ok, fail)
	return ch
}

// event returns a channel receiving target once it fires okEvent, or its
// error once it fires one of failEvents (IndexedDB requests and
// transactions report through on<event> properties and target.error).
// The handlers remove and release themselves.
func event(target js.Value, okEvent string, failEvents ...string) <-chan settled {
	ch := make(chan settled, 1)
	names := append([]string{okEvent}, failEvents...)
	funcs := make([]js.Func, len(names))
	done := func(s settled) {
		for i, name := range names {
			target.Set("on"+name, js.Null())
			funcs[i].Release()
		}
		ch <- s
	}
	for i, name := range names {
		funcs[i] = js.FuncOf(func(js.Value, []js.Value) any {
			if i == 0 {
				done(settled{v: target})
			} else {
				done(settled{err: jsError(target.Get("error"))})
			}
			return nil
		})
		target.Set("on"+name, funcs[i])
	}
	return ch
}

// wait waits for ch or the end of ctx.
func wait(ctx context.Context, ch <-chan settled) (js.Value, error) {
	select {
	case s := <-ch:
		return s.v, s.err
	case <-ctx.Done():
		return js.Undefined(), ctx.Err()
	}
}

func arg(args []js.Value) js.Value {
	if len(args) == 0 {
		return js.Undefined()
	}
	return args[0]
}

// jsError turns a JavaScript error (an Error, a DOMException, anything
// thrown) into a Go error.
func jsError(v js.Value) error {
	if v.Type() == js.TypeObject && v.Get("message").Type() == js.TypeString {
		name, msg := v.Get("name"), v.Get("message").String()
		if name.Type() == js.TypeString && name.String() != "" {
			return errors.New(name.String() + ": " + msg)
		}
		return errors.New(msg)
	}
	if v.IsUndefined() || v.IsNull() {
		return errors.New("unknown JavaScript error")
	}
	return errors.New(v.String())
}

// catch turns a JavaScript exception thrown by a syscall/js call into
// *err; use it as defer catch(&err).
func catch(err *error) {
	r := recover()
	if r == nil {
		return
	}
	if e, ok := r.(js.Error); ok {
		*err = jsError(e.Value)
		return
	}
	panic(r)
}

// global returns window[name], or an error if reading it throws (as
// window.localStorage does when storage is blocked). It reads through
// Reflect.get because js.Value.Get does not catch: a throwing getter
// leaves the Go program hanging.
func global(name string) (v js.Value, err error) {
	defer catch(&err)
	return js.Global().Get("Reflect").Call("get", js.Global(), name), nil
}

// visible reports whether the document is visible.
func visible() bool {
	return js.Global().Get("document").Get("visibilityState").String() == "visible"
}
