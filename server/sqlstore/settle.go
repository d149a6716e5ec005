package sqlstore

import (
	"context"
	"sync"
	"time"
)

// settler runs the waits of settleEvents in rounds, one at a time: the
// readers that arrive while a round runs share the next one, so that a
// burst of reads (every live feed woken by one notification) polls the
// snapshot once, not once per reader.
type settler struct {
	mu      sync.Mutex
	running bool
	next    *settleRound // starts when the running round ends
}

// settleRound is one wait that several readers share.
type settleRound struct {
	done chan struct{}
	err  error
}

// settleEvents waits until every transaction that was running when it
// was called has ended, for at most settleWait per round, so that a
// read of events that follows sees every event committed before the
// call (the events of later transactions may still wait behind the
// horizon). Transactions end within milliseconds; a long one elsewhere
// in the database only delays what the reader sees: by at most two
// rounds (the running one and the shared next one), and then until it
// ends.
func (s *Store) settleEvents(ctx context.Context) error {
	if s.dialect.EventSnapshot == "" {
		return nil
	}
	st := &s.settle
	st.mu.Lock()
	if !st.running {
		st.running = true
		st.mu.Unlock()
		err := s.settleOnce(ctx)
		s.nextRound()
		return err
	}
	r := st.next
	if r == nil { // it starts after the call: its snapshot covers what runs now
		r = &settleRound{done: make(chan struct{})}
		st.next = r
	}
	st.mu.Unlock()
	select {
	case <-r.done:
		return r.err
	case <-ctx.Done():
		return ctx.Err()
	}
}

// nextRound runs the round the readers wait for, if any, once the one
// that ran has ended.
func (s *Store) nextRound() {
	st := &s.settle
	st.mu.Lock()
	r := st.next
	st.next = nil
	st.running = r != nil
	st.mu.Unlock()
	if r == nil {
		return
	}
	go func() {
		ctx, cancel := context.WithTimeout(context.Background(), 2*settleWait)
		r.err = s.settleOnce(ctx)
		cancel()
		close(r.done)
		s.nextRound()
	}()
}

// settleOnce waits until every transaction running when it starts has
// ended, for at most settleWait.
func (s *Store) settleOnce(ctx context.Context) error {
	var horizon, target int64
	if err := s.db.QueryRow(ctx, s.dialect.EventSnapshot).Scan(&horizon, &target); err != nil {
		return err
	}
	t := time.NewTimer(settleWait)
	defer t.Stop()
	for horizon < target {
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-t.C:
			return nil
		case <-time.After(time.Millisecond):
		}
		var next int64
		if err := s.db.QueryRow(ctx, s.dialect.EventSnapshot).Scan(&horizon, &next); err != nil {
			return err
		}
	}
	return nil
}
