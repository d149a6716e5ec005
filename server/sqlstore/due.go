package sqlstore

import (
	"context"
	"sync/atomic"
)

// dueDB runs the store's transactions and, after one that created
// deliveries or made one due now commits, calls the store's OnDue hook.
type dueDB struct {
	DB
	onDue *atomic.Pointer[func()]
}

// InTx runs fn on a transaction that remembers whether markDue was
// called on it.
func (db dueDB) InTx(ctx context.Context, fn func(tx Conn) error) error {
	var due bool
	err := db.DB.InTx(ctx, func(tx Conn) error {
		due = false
		return fn(dueTx{Conn: tx, due: &due})
	})
	if f := db.onDue.Load(); err == nil && due && f != nil {
		(*f)()
	}
	return err
}

// dueTx is a transaction of dueDB.
type dueTx struct {
	Conn
	due *bool
}

// markDue notes that tx created deliveries or made one due now.
func markDue(tx Conn) {
	if t, ok := tx.(dueTx); ok {
		*t.due = true
	}
}

// OnDue sets fn to be called after each commit that created deliveries
// or made one due now.
func (s *Store) OnDue(fn func()) { s.onDue.Store(&fn) }
