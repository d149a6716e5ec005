//go:build js && wasm

package browser

import (
	"context"
	"syscall/js"
)

// Triggers returns a channel that receives when the browser comes back
// online (window "online") and when the page becomes visible again
// (document "visibilitychange"), the moments worth a flush; pass it to
// offline.Queue.Run. Signals that arrive while one is pending merge. The
// listeners are removed and the channel closed when ctx ends.
func Triggers(ctx context.Context) <-chan struct{} {
	ch := make(chan struct{}, 1)
	poke := func() {
		select {
		case ch <- struct{}{}:
		default:
		}
	}
	win, doc := js.Global(), js.Global().Get("document")
	online := js.FuncOf(func(js.Value, []js.Value) any {
		poke()
		return nil
	})
	shown := js.FuncOf(func(js.Value, []js.Value) any {
		if visible() {
			poke()
		}
		return nil
	})
	win.Call("addEventListener", "online", online)
	doc.Call("addEventListener", "visibilitychange", shown)
	context.AfterFunc(ctx, func() {
		win.Call("removeEventListener", "online", online)
		doc.Call("removeEventListener", "visibilitychange", shown)
		online.Release()
		shown.Release()
		close(ch)
	})
	return ch
}

// Online reports whether the browser believes it is online
// (navigator.onLine). True does not mean the service is reachable.
func Online() bool {
	return js.Global().Get("navigator").Get("onLine").Truthy()
}

// PersistStorage asks the browser to keep this origin's storage under
// storage pressure (navigator.storage.persist()), as a kiosk should. It
// does not wait for the answer and does nothing where the API is absent.
func PersistStorage() {
	defer catch(new(error))
	storage := js.Global().Get("navigator").Get("storage")
	if storage.Type() == js.TypeObject && storage.Get("persist").Type() == js.TypeFunction {
		storage.Call("persist")
	}
}

// WakeLock keeps the screen on (navigator.wakeLock.request("screen")) for
// a kiosk, requesting the lock again whenever the page becomes visible,
// since the browser drops it when the page is hidden. The lock is released
// when release is called or ctx ends. Where the API is absent or the
// browser refuses, the screen follows its usual timeout.
func WakeLock(ctx context.Context) (release func()) {
	ctx, cancel := context.WithCancel(ctx)
	api := js.Global().Get("navigator").Get("wakeLock")
	if api.Type() != js.TypeObject {
		return cancel
	}
	want := make(chan struct{}, 1)
	want <- struct{}{}
	doc := js.Global().Get("document")
	shown := js.FuncOf(func(js.Value, []js.Value) any {
		if visible() {
			select {
			case want <- struct{}{}:
			default:
			}
		}
		return nil
	})
	doc.Call("addEventListener", "visibilitychange", shown)
	go func() {
		defer func() {
			doc.Call("removeEventListener", "visibilitychange", shown)
			shown.Release()
		}()
		holdWakeLock(ctx, api, want)
	}()
	return cancel
}

// holdWakeLock requests the lock on every signal of want while it is not
// held, and releases it when ctx ends.
func holdWakeLock(ctx context.Context, api js.Value, want <-chan struct{}) {
	sentinel := js.Undefined()
	held := func() bool { return sentinel.Truthy() && !sentinel.Get("released").Bool() }
	for {
		select {
		case <-ctx.Done():
			if held() {
				sentinel.Call("release")
			}
			return
		case <-want:
			if held() || !visible() {
				continue
			}
			if s := <-settle(requestScreenLock(api)); s.err == nil {
				sentinel = s.v
			}
		}
	}
}

// requestScreenLock returns the promise of a screen wake lock, or a
// rejected promise if the call throws.
func requestScreenLock(api js.Value) (p js.Value) {
	defer func() {
		if r := recover(); r != nil {
			p = js.Global().Get("Promise").Call("reject", "wakeLock.request threw")
		}
	}()
	return api.Call("request", "screen")
}
