//go:build js && wasm

package browser

import (
	"context"
	"errors"
	"syscall/js"

	"github.com/feedbackhq/feedback/app/offline"
)

// The IndexedDB layout.
const (
	dbName      = "feedback"
	dbVersion   = 1
	outboxStore = "outbox"
	deadStore   = "dead"
)

// IndexedDB is an offline.Store in the browser's IndexedDB: database
// "feedback", object stores "outbox" and "dead" keyed by "ID". A write
// returns once its transaction has completed. It is what a service
// worker would read for Background Sync, and it is safe for several tabs.
type IndexedDB struct {
	db js.Value
}

var _ offline.Store = (*IndexedDB)(nil)

// openIndexedDB opens (creating or upgrading) database name with the
// IndexedDB factory idb (window.indexedDB).
func openIndexedDB(ctx context.Context, idb js.Value, name string) (_ *IndexedDB, err error) {
	defer catch(&err)
	if idb.Type() != js.TypeObject {
		return nil, errors.New("IndexedDB is not available")
	}
	req := idb.Call("open", name, dbVersion)
	upgrade := js.FuncOf(func(js.Value, []js.Value) any {
		db := req.Get("result")
		for _, s := range []string{outboxStore, deadStore} {
			if !db.Get("objectStoreNames").Call("contains", s).Bool() {
				db.Call("createObjectStore", s, map[string]any{"keyPath": "ID"})
			}
		}
		return nil
	})
	req.Set("onupgradeneeded", upgrade)
	opened := event(req, "success", "error")
	select {
	case s := <-opened:
		req.Set("onupgradeneeded", js.Null())
		upgrade.Release()
		if s.err != nil {
			return nil, s.err
		}
		return &IndexedDB{db: req.Get("result")}, nil
	case <-ctx.Done():
		go func() { // release the upgrade callback, and close a late success
			s := <-opened
			upgrade.Release()
			if s.err == nil {
				req.Get("result").Call("close")
			}
		}()
		return nil, ctx.Err()
	}
}

// Close closes the connection; the store is unusable afterwards.
func (d *IndexedDB) Close() { d.db.Call("close") }

// Put implements offline.Store.
func (d *IndexedDB) Put(ctx context.Context, it offline.Item) error {
	return d.write(ctx, outboxStore, "put", recordOf(it).js())
}

// Delete implements offline.Store.
func (d *IndexedDB) Delete(ctx context.Context, id string) error {
	return d.write(ctx, outboxStore, "delete", js.ValueOf(id))
}

// List implements offline.Store.
func (d *IndexedDB) List(ctx context.Context) ([]offline.Item, error) {
	return d.list(ctx, outboxStore)
}

// Has implements offline.Store with a count of one key.
func (d *IndexedDB) Has(ctx context.Context, id string) (_ bool, err error) {
	defer catch(&err)
	req := d.db.Call("transaction", outboxStore, "readonly").Call("objectStore", outboxStore).Call("count", id)
	res, err := wait(ctx, event(req, "success", "error"))
	if err != nil {
		return false, err
	}
	return res.Get("result").Int() > 0, nil
}

// PutDead implements offline.Store.
func (d *IndexedDB) PutDead(ctx context.Context, it offline.Item) error {
	return d.write(ctx, deadStore, "put", recordOf(it).js())
}

// ListDead implements offline.Store.
func (d *IndexedDB) ListDead(ctx context.Context) ([]offline.Item, error) {
	return d.list(ctx, deadStore)
}

// DeleteDead implements offline.Store.
func (d *IndexedDB) DeleteDead(ctx context.Context, id string) error {
	return d.write(ctx, deadStore, "delete", js.ValueOf(id))
}

// write calls store.method(arg) in a read-write transaction and waits for
// the transaction to complete.
func (d *IndexedDB) write(ctx context.Context, store, method string, arg js.Value) (err error) {
	defer catch(&err)
	tx := d.db.Call("transaction", store, "readwrite")
	done := event(tx, "complete", "error", "abort")
	tx.Call("objectStore", store).Call(method, arg)
	_, err = wait(ctx, done)
	return err
}

// list returns the records of store, oldest first.
func (d *IndexedDB) list(ctx context.Context, store string) (items []offline.Item, err error) {
	defer catch(&err)
	req := d.db.Call("transaction", store, "readonly").Call("objectStore", store).Call("getAll")
	res, err := wait(ctx, event(req, "success", "error"))
	if err != nil {
		return nil, err
	}
	all := res.Get("result")
	items = make([]offline.Item, 0, all.Length())
	for i := range all.Length() {
		if it, ok := recordFromJS(all.Index(i)).item(); ok {
			items = append(items, it)
		}
	}
	offline.SortItems(items)
	return items, nil
}
