//go:build js && wasm

package browser

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"syscall/js"

	"github.com/feedbackhq/feedback/app/offline"
)

// localPrefix prefixes the localStorage keys of [LocalStorage]:
// feedback/outbox/{id} and feedback/dead/{id}.
const localPrefix = "feedback/"

// LocalStorage is an offline.Store in window.localStorage, one JSON value
// per item, for browsers where IndexedDB is missing or broken. It is
// synchronous and limited to a few megabytes.
type LocalStorage struct {
	ls     js.Value
	outbox string // key prefixes
	dead   string
}

var _ offline.Store = (*LocalStorage)(nil)

// openLocalStorage returns the store under prefix after checking that
// localStorage can be written.
func openLocalStorage(prefix string) (_ *LocalStorage, err error) {
	ls, err := global("localStorage")
	if err != nil {
		return nil, err
	}
	defer catch(&err)
	if ls.Type() != js.TypeObject {
		return nil, errors.New("localStorage is not available")
	}
	probe := prefix + "probe"
	ls.Call("setItem", probe, "1")
	ls.Call("removeItem", probe)
	return &LocalStorage{ls: ls, outbox: prefix + "outbox/", dead: prefix + "dead/"}, nil
}

// Put implements offline.Store.
func (l *LocalStorage) Put(ctx context.Context, it offline.Item) error { return l.set(l.outbox, it) }

// Delete implements offline.Store.
func (l *LocalStorage) Delete(ctx context.Context, id string) error { return l.remove(l.outbox + id) }

// List implements offline.Store.
func (l *LocalStorage) List(ctx context.Context) ([]offline.Item, error) { return l.list(l.outbox) }

// Has implements offline.Store.
func (l *LocalStorage) Has(ctx context.Context, id string) (_ bool, err error) {
	defer catch(&err)
	return l.ls.Call("getItem", l.outbox+id).Type() == js.TypeString, nil
}

// PutDead implements offline.Store.
func (l *LocalStorage) PutDead(ctx context.Context, it offline.Item) error { return l.set(l.dead, it) }

// ListDead implements offline.Store.
func (l *LocalStorage) ListDead(ctx context.Context) ([]offline.Item, error) { return l.list(l.dead) }

// DeleteDead implements offline.Store.
func (l *LocalStorage) DeleteDead(ctx context.Context, id string) error { return l.remove(l.dead + id) }

func (l *LocalStorage) set(prefix string, it offline.Item) (err error) {
	defer catch(&err) // QuotaExceededError
	b, err := json.Marshal(recordOf(it))
	if err != nil {
		return err
	}
	l.ls.Call("setItem", prefix+it.ID, string(b))
	return nil
}

func (l *LocalStorage) remove(key string) (err error) {
	defer catch(&err)
	l.ls.Call("removeItem", key)
	return nil
}

func (l *LocalStorage) list(prefix string) (items []offline.Item, err error) {
	defer catch(&err)
	items = []offline.Item{}
	for i := range l.ls.Get("length").Int() {
		key := l.ls.Call("key", i)
		if key.Type() != js.TypeString || !strings.HasPrefix(key.String(), prefix) {
			continue
		}
		var r record
		if json.Unmarshal([]byte(l.ls.Call("getItem", key).String()), &r) != nil {
			continue // not ours: left in place
		}
		if it, ok := r.item(); ok {
			items = append(items, it)
		}
	}
	offline.SortItems(items)
	return items, nil
}
