//go:build js && wasm

package browser

import (
	"context"
	"fmt"
	"syscall/js"
	"time"

	"github.com/feedbackhq/feedback/app/offline"
)

// openTimeout bounds the wait for IndexedDB, which some browsers leave
// hanging instead of failing.
const openTimeout = 5 * time.Second

// OpenStore returns the best store the browser offers: [IndexedDB], else
// [LocalStorage], else an offline.Memory as a last resort. The store is
// never nil; the error is non-nil only with the memory store, saying why
// queued submissions will not survive a reload, so that the UI can warn.
// When IndexedDB opens, items a previous visit left in localStorage move
// into it. Call it from a goroutine, not a js.FuncOf callback.
func OpenStore(ctx context.Context) (offline.Store, error) {
	idb, _ := global("indexedDB")
	return openStore(ctx, idb, dbName, localPrefix)
}

func openStore(ctx context.Context, idb js.Value, name, prefix string) (offline.Store, error) {
	octx, cancel := context.WithTimeout(ctx, openTimeout)
	defer cancel()
	db, idbErr := openIndexedDB(octx, idb, name)
	ls, lsErr := openLocalStorage(prefix)
	if idbErr == nil {
		if lsErr == nil {
			moveAll(ctx, ls, db)
		}
		return db, nil
	}
	if lsErr == nil {
		return ls, nil
	}
	return offline.NewMemory(), fmt.Errorf("browser: submissions are kept in memory only (IndexedDB: %v; localStorage: %v)", idbErr, lsErr)
}

// moveAll moves the items and dead letters of from into to, deleting
// each from from only once to holds it. Failures leave items in from.
func moveAll(ctx context.Context, from, to offline.Store) {
	if items, err := from.List(ctx); err == nil {
		for _, it := range items {
			if to.Put(ctx, it) == nil {
				from.Delete(ctx, it.ID)
			}
		}
	}
	if dead, err := from.ListDead(ctx); err == nil {
		for _, it := range dead {
			if to.PutDead(ctx, it) == nil {
				from.DeleteDead(ctx, it.ID)
			}
		}
	}
}
