package sqlite

import (
	"context"
	"database/sql"
	"fmt"

	"github.com/feedbackhq/feedback/server/sqlstore"
)

// maxGroup bounds the transactions that one commit holds.
const maxGroup = 64

// A group commit: SQLite has one writer, and in WAL mode with
// synchronous=FULL each commit writes the pages it changed to the log
// and waits for the disk. The transactions that wait for the writer are
// run one after the other in one transaction instead, each in a
// savepoint of its own, and committed together: one log write and one
// wait for the disk for all of them. Each caller gets its own outcome,
// after the commit: a transaction that fails rolls back to its
// savepoint, leaving the others; if the group as a whole cannot commit
// (or an error aborts SQLite's transaction), its members run again each
// in a transaction of its own, as the first writer does when nobody else
// waits. fn may run more than once, which sqlstore.DB allows.

// txRequest is one caller's transaction, waiting for the writer.
type txRequest struct {
	ctx  context.Context
	fn   func(tx sqlstore.Conn) error
	done chan error
}

// committer runs the writer's transactions, in groups.
type committer struct {
	writer *stmts
	queue  chan *txRequest
	stop   chan struct{}
	ended  chan struct{}
}

func newCommitter(writer *stmts) *committer {
	c := &committer{writer: writer, queue: make(chan *txRequest, maxGroup), stop: make(chan struct{}),
		ended: make(chan struct{})}
	go c.run()
	return c
}

// inTx hands fn to the committer and waits for its outcome.
func (c *committer) inTx(ctx context.Context, fn func(tx sqlstore.Conn) error) error {
	r := &txRequest{ctx: ctx, fn: fn, done: make(chan error, 1)}
	select {
	case c.queue <- r:
	case <-ctx.Done():
		return ctx.Err()
	case <-c.stop:
		return sql.ErrConnDone
	}
	err := <-r.done // once handed over, it runs or is refused, soon
	if p, ok := err.(panicked); ok {
		panic(p.value) // on the caller's goroutine, as if fn ran there
	}
	return err
}

// panicked is the outcome of a transaction whose fn panicked on the
// committer's goroutine: inTx panics with value on its caller's.
type panicked struct{ value any }

func (p panicked) Error() string { return fmt.Sprint("sqlite: transaction panicked: ", p.value) }

// call runs fn on tx, turning a panic into a [panicked] error, so that a
// caller's bug fails its own request rather than the committer.
func call(fn func(tx sqlstore.Conn) error, tx sqlstore.Conn) (err error) {
	defer func() {
		if v := recover(); v != nil {
			err = panicked{v}
		}
	}()
	return fn(tx)
}

// close stops the committer once the transactions handed over are done.
func (c *committer) close() {
	close(c.stop)
	<-c.ended
}

// run takes the waiting transactions, up to maxGroup at a time, and runs
// them until close.
func (c *committer) run() {
	defer close(c.ended)
	for {
		var first *txRequest
		select {
		case first = <-c.queue:
		case <-c.stop:
			c.refuseWaiting()
			return
		}
		group := []*txRequest{first}
	gather:
		for len(group) < maxGroup {
			select {
			case r := <-c.queue:
				group = append(group, r)
			default:
				break gather
			}
		}
		c.runGroup(group)
		c.writer.preparePending(context.Background())
	}
}

// refuseWaiting answers the transactions still queued at close.
func (c *committer) refuseWaiting() {
	for {
		select {
		case r := <-c.queue:
			r.done <- sql.ErrConnDone
		default:
			return
		}
	}
}

// runGroup runs group in one transaction, or each alone when it has one
// member or cannot commit together.
func (c *committer) runGroup(group []*txRequest) {
	if len(group) == 1 {
		group[0].done <- c.alone(group[0])
		return
	}
	tx, err := c.writer.db.BeginTx(context.Background(), nil)
	if err != nil {
		c.eachAlone(group)
		return
	}
	defer tx.Rollback()
	var ok []*txRequest
	for i, r := range group {
		if err := r.ctx.Err(); err != nil {
			r.done <- err
			continue
		}
		intact, err := member(tx, c.writer, r)
		if !intact { // SQLite ended the transaction: the rest go alone
			tx.Rollback()
			r.done <- err
			c.eachAlone(append(ok, group[i+1:]...))
			return
		}
		if err != nil {
			r.done <- err
			continue
		}
		ok = append(ok, r)
	}
	if err := tx.Commit(); err != nil {
		c.eachAlone(ok)
		return
	}
	for _, r := range ok {
		r.done <- nil
	}
}

// member runs r in a savepoint of tx, rolled back if r fails. intact is
// false when the transaction itself can no longer go on.
func member(tx *sql.Tx, writer *stmts, r *txRequest) (intact bool, err error) {
	ctx := context.WithoutCancel(r.ctx) // an interrupted statement would end the whole transaction
	if _, err := tx.ExecContext(ctx, "SAVEPOINT member"); err != nil {
		return false, classify(err)
	}
	if err := call(r.fn, conn{prepared{writer, tx}}); err != nil {
		if _, rerr := tx.ExecContext(ctx, "ROLLBACK TO member"); rerr != nil {
			return false, err
		}
		_, rerr := tx.ExecContext(ctx, "RELEASE member")
		return rerr == nil, err
	}
	if _, err := tx.ExecContext(ctx, "RELEASE member"); err != nil {
		return false, classify(err)
	}
	return true, nil
}

// eachAlone runs each of group in a transaction of its own.
func (c *committer) eachAlone(group []*txRequest) {
	for _, r := range group {
		r.done <- c.alone(r)
	}
}

// alone runs r in a transaction of its own.
func (c *committer) alone(r *txRequest) error {
	if err := r.ctx.Err(); err != nil {
		return err
	}
	tx, err := c.writer.db.BeginTx(r.ctx, nil)
	if err != nil {
		return classify(err)
	}
	defer tx.Rollback()
	if err := call(r.fn, conn{prepared{c.writer, tx}}); err != nil {
		return err
	}
	return classify(tx.Commit())
}
