package sqlstore

import (
	"context"
	"fmt"
	"slices"
	"sync/atomic"
)

// dueDB runs the store's transactions and, after one that created
// deliveries or made one due now commits, calls the store's OnDue hook;
// after one that wrote events, its OnEvent hook. It also counts the
// events each transaction writes (see eventOrdinal).
type dueDB struct {
	DB
	onDue   *atomic.Pointer[func()]
	onEvent *atomic.Pointer[[]func(workspaceID string, seq int64)]
}

// InTx runs fn on a transaction that remembers whether markDue was
// called on it and how many events it wrote.
func (db dueDB) InTx(ctx context.Context, fn func(tx Conn) error) error {
	var st txState
	err := db.DB.InTx(ctx, func(tx Conn) error {
		st = txState{} // the adapter may run fn again
		return fn(dueTx{Conn: tx, st: &st})
	})
	if err == nil && st.due {
		db.due()
	}
	if err == nil {
		for _, w := range st.written {
			db.evented(w.workspaceID, w.seq)
		}
	}
	return err
}

// evented calls the OnEvent hooks.
func (db dueDB) evented(workspaceID string, seq int64) {
	if fs := db.onEvent.Load(); fs != nil {
		for _, f := range *fs {
			f(workspaceID, seq)
		}
	}
}

// due calls the OnDue hook, if set.
func (db dueDB) due() {
	if f := db.onDue.Load(); f != nil {
		(*f)()
	}
}

// txState is what a transaction of dueDB remembers.
type txState struct {
	due     bool // it created deliveries or made one due now
	events  int  // the events it wrote
	written []written
}

// written is the last event a transaction wrote in a workspace.
type written struct {
	workspaceID string
	seq         int64
}

// noteEvent notes that tx wrote an event of seq in the workspace.
func noteEvent(tx Conn, workspaceID string, seq int64) {
	t, ok := tx.(dueTx)
	if !ok {
		return
	}
	for i, w := range t.st.written {
		if w.workspaceID == workspaceID {
			t.st.written[i].seq = max(w.seq, seq)
			return
		}
	}
	t.st.written = append(t.st.written, written{workspaceID, seq})
}

// dueTx is a transaction of dueDB.
type dueTx struct {
	Conn
	st *txState
}

// markDue notes that tx created deliveries or made one due now.
func markDue(tx Conn) {
	if t, ok := tx.(dueTx); ok {
		t.st.due = true
	}
}

// MaxTxEvents is the most events one transaction may write: the
// ordinal of an event within its transaction is part of its seq on
// PostgreSQL (see Dialect.EventSeq).
const MaxTxEvents = 1024

// eventOrdinal returns the ordinal of the next event tx writes, from 0.
func eventOrdinal(tx Conn) (int, error) {
	t, ok := tx.(dueTx)
	if !ok {
		return 0, fmt.Errorf("an event written outside the store's transactions")
	}
	if t.st.events == MaxTxEvents {
		return 0, fmt.Errorf("more than %d events in one transaction", MaxTxEvents)
	}
	t.st.events++
	return t.st.events - 1, nil
}

// due calls the OnDue hook after a commit outside InTx that created
// deliveries.
func (s *Store) due() { s.db.(dueDB).due() }

// OnDue sets fn to be called after each commit that created deliveries
// or made one due now.
func (s *Store) OnDue(fn func()) { s.onDue.Store(&fn) }

// OnEvent adds fn to the functions called after each commit that wrote
// events, once per workspace with the largest seq written there. It may
// be called while commits run: they call the functions added before.
func (s *Store) OnEvent(fn func(workspaceID string, seq int64)) {
	for {
		old := s.onEvent.Load()
		var fs []func(string, int64)
		if old != nil {
			fs = slices.Clone(*old)
		}
		fs = append(fs, fn)
		if s.onEvent.CompareAndSwap(old, &fs) {
			return
		}
	}
}

// evented calls the OnEvent hook after a commit outside InTx that wrote
// an event.
func (s *Store) evented(workspaceID string, seq int64) { s.db.(dueDB).evented(workspaceID, seq) }
