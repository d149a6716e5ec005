//go:build js && wasm

package browser

import (
	"context"
	"syscall/js"
	"testing"
	"time"
)

func received(ch <-chan struct{}) (got, open bool) {
	select {
	case _, open := <-ch:
		return true, open
	case <-time.After(200 * time.Millisecond):
		return false, true
	}
}

func TestTriggers(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	ch := Triggers(ctx)
	dispatch := func(target js.Value, name string) {
		target.Call("dispatchEvent", js.Global().Get("Event").New(name))
	}
	doc := js.Global().Get("document")
	if got, _ := received(ch); got {
		t.Fatal("a signal before any event")
	}
	dispatch(js.Global(), "online")
	if got, _ := received(ch); !got {
		t.Error("no signal on online")
	}
	dispatch(js.Global(), "offline")
	if got, _ := received(ch); got {
		t.Error("a signal on offline")
	}
	dispatch(doc, "visibilitychange")
	if got, _ := received(ch); got != visible() {
		t.Errorf("signal on visibilitychange = %v; visibilityState is %s", got, doc.Get("visibilityState"))
	}
	cancel()
	if _, open := received(ch); open {
		t.Error("channel still open after ctx ended")
	}
	dispatch(js.Global(), "online") // the listener is gone: no call to a released func
}

func TestOnlineAndPersist(t *testing.T) {
	if !Online() {
		t.Error("Online() = false in a test browser")
	}
	PersistStorage()
}

func TestWakeLock(t *testing.T) {
	t.Logf("navigator.wakeLock: %s; visibilityState: %s", js.Global().Get("navigator").Get("wakeLock").Type(),
		js.Global().Get("document").Get("visibilityState"))
	release := WakeLock(context.Background())
	time.Sleep(100 * time.Millisecond)
	js.Global().Get("document").Call("dispatchEvent", js.Global().Get("Event").New("visibilitychange"))
	time.Sleep(100 * time.Millisecond)
	release()
	time.Sleep(100 * time.Millisecond)
	js.Global().Get("document").Call("dispatchEvent", js.Global().Get("Event").New("visibilitychange"))
}
