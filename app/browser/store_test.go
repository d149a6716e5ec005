//go:build js && wasm

package browser

import (
	"context"
	"fmt"
	"strings"
	"syscall/js"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/feedbackhq/feedback/app/offline"
	"github.com/feedbackhq/feedback/app/offline/offlinetest"
	"github.com/feedbackhq/feedback/shared/client"
)

var dbSeq int

// tempDB opens a fresh IndexedDB database, deleted when tb ends.
func tempDB(tb testing.TB) *IndexedDB {
	dbSeq++
	name := fmt.Sprintf("feedback-test-%d", dbSeq)
	db, err := openIndexedDB(context.Background(), js.Global().Get("indexedDB"), name)
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() {
		db.Close()
		js.Global().Get("indexedDB").Call("deleteDatabase", name)
	})
	return db
}

// tempPrefix returns a fresh localStorage key prefix, cleared when tb ends.
func tempPrefix(tb testing.TB) string {
	dbSeq++
	prefix := fmt.Sprintf("feedback-test-%d/", dbSeq)
	tb.Cleanup(func() {
		ls := js.Global().Get("localStorage")
		for i := ls.Get("length").Int() - 1; i >= 0; i-- {
			if k := ls.Call("key", i).String(); strings.HasPrefix(k, prefix) {
				ls.Call("removeItem", k)
			}
		}
	})
	return prefix
}

func tempLocal(tb testing.TB) *LocalStorage {
	ls, err := openLocalStorage(tempPrefix(tb))
	if err != nil {
		tb.Fatal(err)
	}
	return ls
}

func TestIndexedDB(t *testing.T) {
	offlinetest.Run(t, func(tb testing.TB) offline.Store { return tempDB(tb) })
}

func TestLocalStorage(t *testing.T) {
	offlinetest.Run(t, func(tb testing.TB) offline.Store { return tempLocal(tb) })
}

func TestIndexedDBSurvivesReopen(t *testing.T) {
	ctx := context.Background()
	db := tempDB(t)
	db.Put(ctx, offlinetest.Item("a", 0))
	db.PutDead(ctx, offlinetest.Item("d", 1))
	name := fmt.Sprintf("feedback-test-%d", dbSeq)
	db.Close()
	again, err := openIndexedDB(ctx, js.Global().Get("indexedDB"), name)
	if err != nil {
		t.Fatal(err)
	}
	defer again.Close()
	if diff := cmp.Diff([]string{"a"}, offlinetest.IDs(t)(again.List(ctx))); diff != "" {
		t.Errorf("outbox after reopening (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]string{"d"}, offlinetest.IDs(t)(again.ListDead(ctx))); diff != "" {
		t.Errorf("dead after reopening (-want +got):\n%s", diff)
	}
}

func TestOpenStore(t *testing.T) {
	ctx := context.Background()
	t.Run("IndexedDB", func(t *testing.T) {
		s, err := OpenStore(ctx)
		if _, ok := s.(*IndexedDB); !ok || err != nil {
			t.Fatalf("OpenStore = %T, %v; want *IndexedDB", s, err)
		}
		s.(*IndexedDB).Close()
	})
	t.Run("localStorage without IndexedDB", func(t *testing.T) {
		s, err := openStore(ctx, js.Undefined(), "unused", tempPrefix(t))
		if _, ok := s.(*LocalStorage); !ok || err != nil {
			t.Errorf("openStore = %T, %v; want *LocalStorage", s, err)
		}
	})
	t.Run("localStorage when IndexedDB fails", func(t *testing.T) {
		broken := eval(`{ open() { throw new DOMException("denied", "InvalidStateError"); } }`)
		s, err := openStore(ctx, broken, "unused", tempPrefix(t))
		if _, ok := s.(*LocalStorage); !ok || err != nil {
			t.Errorf("openStore = %T, %v; want *LocalStorage", s, err)
		}
	})
	t.Run("memory when both fail", func(t *testing.T) {
		restore := breakLocalStorage()
		defer restore()
		s, err := openStore(ctx, js.Undefined(), "unused", "unused/")
		if _, ok := s.(*offline.Memory); !ok || err == nil {
			t.Errorf("openStore = %T, %v; want *offline.Memory and an error", s, err)
		}
	})
	t.Run("moves localStorage items into IndexedDB", func(t *testing.T) {
		prefix := tempPrefix(t)
		ls, _ := openLocalStorage(prefix)
		ls.Put(ctx, offlinetest.Item("a", 0))
		ls.PutDead(ctx, offlinetest.Item("d", 0))
		dbSeq++
		name := fmt.Sprintf("feedback-test-%d", dbSeq)
		s, err := openStore(ctx, js.Global().Get("indexedDB"), name, prefix)
		db, ok := s.(*IndexedDB)
		if !ok || err != nil {
			t.Fatalf("openStore = %T, %v; want *IndexedDB", s, err)
		}
		defer js.Global().Get("indexedDB").Call("deleteDatabase", name)
		defer db.Close()
		if diff := cmp.Diff([]string{"a"}, offlinetest.IDs(t)(db.List(ctx))); diff != "" {
			t.Errorf("IndexedDB outbox (-want +got):\n%s", diff)
		}
		if diff := cmp.Diff([]string{"d"}, offlinetest.IDs(t)(db.ListDead(ctx))); diff != "" {
			t.Errorf("IndexedDB dead (-want +got):\n%s", diff)
		}
		if n := len(offlinetest.IDs(t)(ls.List(ctx))) + len(offlinetest.IDs(t)(ls.ListDead(ctx))); n != 0 {
			t.Errorf("%d items left in localStorage; want 0", n)
		}
	})
}

// eval returns the value of a JavaScript expression.
func eval(expr string) js.Value {
	return js.Global().Get("Function").New("return (" + expr + ");").Invoke()
}

// breakLocalStorage makes window.localStorage throw, as when storage is
// blocked, until restore is called.
func breakLocalStorage() (restore func()) {
	eval(`(() => {
		const own = Object.getOwnPropertyDescriptor(window, "localStorage");
		window.__savedLocalStorage = own || null;
		Object.defineProperty(window, "localStorage", { configurable: true,
			get() { throw new DOMException("blocked", "SecurityError"); } });
	})()`)
	return func() {
		eval(`(() => {
			const saved = window.__savedLocalStorage;
			if (saved) Object.defineProperty(window, "localStorage", saved);
			else delete window.localStorage;
		})()`)
	}
}

// fakeFetch replaces window.fetch with fn (a JavaScript function
// expression) until the test ends.
func fakeFetch(t *testing.T, fn string) {
	real := js.Global().Get("fetch")
	js.Global().Set("fetch", eval(fn))
	t.Cleanup(func() { js.Global().Set("fetch", real) })
}

// TestQueueInBrowser runs the queue on IndexedDB and fetch.
func TestQueueInBrowser(t *testing.T) {
	fakeFetch(t, `async (url, o) => new Response("{}", { status: url === "/q/bad" ? 422 : 201 })`)
	ctx := context.Background()
	db := tempDB(t)
	q := offline.New(db, offline.Over(client.Fetch{}))
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
