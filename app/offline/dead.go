package offline

import (
	"context"
	"fmt"
)

// Pending returns the queued items, oldest first.
func (q *Queue) Pending(ctx context.Context) ([]Item, error) { return q.store.List(ctx) }

// Dead returns the dead letters, oldest first, each with the status and
// the problem detail of its rejection in LastStatus and LastError.
func (q *Queue) Dead(ctx context.Context) ([]Item, error) { return q.store.ListDead(ctx) }

// Requeue moves the dead letter with id back into the queue, in its
// original place, and asks for a flush: for items rejected because of a
// problem since fixed, such as a revoked kiosk that was paired again.
func (q *Queue) Requeue(ctx context.Context, id string) error {
	dead, err := q.store.ListDead(ctx)
	if err != nil {
		return err
	}
	i := indexOf(dead, id)
	if i < 0 {
		return fmt.Errorf("offline: no dead letter %q", id)
	}
	if err := q.store.Put(ctx, dead[i]); err != nil {
		return err
	}
	if err := q.store.DeleteDead(ctx, id); err != nil {
		return err
	}
	q.notify(ctx)
	q.Poke()
	return nil
}

// Discard deletes the dead letter with id, when the user chooses to give
// it up: the only way an item leaves the store unsent.
func (q *Queue) Discard(ctx context.Context, id string) error {
	if err := q.store.DeleteDead(ctx, id); err != nil {
		return err
	}
	q.notify(ctx)
	return nil
}
