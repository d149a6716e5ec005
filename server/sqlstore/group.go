package sqlstore

import (
	"cmp"
	"context"
	"slices"
	"sync"
	"time"
)

// groupMax is the most additions one group commits together, well under
// MaxTxEvents: each writes one event.
const groupMax = 64

// groupTimeout bounds a group's round trip: a group runs detached from
// the requests that wait for it, so that one client that goes away
// cannot abort the others' additions.
const groupTimeout = 30 * time.Second

// grouper commits concurrent additions together (group commit): the
// first addition to find fewer than groupsRunning groups running runs
// at once, by itself, in the caller's goroutine; the additions that arrive while
// groups run queue, and the next group takes all of them, up to
// groupMax, as one transaction in one round trip (addInOne's statement
// once for each, in a pipeline). One visitor alone thus pays nothing;
// many share a commit, its round trip and its flush. Each addition is
// acknowledged only after its group committed. When a group fails (one
// of its additions breaks a foreign key, or two groups deadlock), none
// of it is kept and each addition runs again alone, to get its own
// answer.
type grouper struct {
	mu      sync.Mutex
	queue   []*groupJob
	running int    // groups running
	s       *Store // whose additions these are
}

// groupJob is one addition waiting for its group.
type groupJob struct {
	ctx         context.Context
	workspaceID string
	a           *addition
	stmt        Statement // addInOne's statement; its last argument is the event's ordinal
	seq         int64     // the event's seq, 0 when the record was already stored
	deliveries  int64     // the deliveries fanned out
	err         error
	done        chan struct{}
}

// add runs j, alone or in a group, and returns when it committed or
// failed: j.seq, j.deliveries and j.err then hold its result.
func (g *grouper) add(j *groupJob) {
	g.mu.Lock()
	if g.running == groupsRunning {
		j.done = make(chan struct{})
		g.queue = append(g.queue, j)
		g.mu.Unlock()
		<-j.done
		return
	}
	g.running++
	g.mu.Unlock()
	g.s.addAlone(j.ctx, j)
	if next := g.next(); next != nil {
		go g.serve(next)
	}
}

// next takes the queued jobs, up to groupMax, or notes that one group
// fewer runs when none is queued.
func (g *grouper) next() []*groupJob {
	g.mu.Lock()
	defer g.mu.Unlock()
	if len(g.queue) == 0 {
		g.running--
		return nil
	}
	n := min(len(g.queue), groupMax)
	js := slices.Clone(g.queue[:n])
	g.queue = slices.Delete(g.queue, 0, n)
	return js
}

// serve runs groups until the queue is empty.
func (g *grouper) serve(js []*groupJob) {
	for ; js != nil; js = g.next() {
		g.run(js)
		for _, j := range js {
			close(j.done)
		}
	}
}

// run commits js together, or each alone when the group fails.
func (g *grouper) run(js []*groupJob) {
	if len(js) == 1 {
		g.s.addAlone(js[0].ctx, js[0])
		return
	}
	slices.SortFunc(js, groupOrder)
	ctx, cancel := context.WithTimeout(context.WithoutCancel(js[0].ctx), groupTimeout)
	defer cancel()
	if g.s.addGroup(ctx, js) == nil {
		return
	}
	for _, j := range js {
		j.seq, j.deliveries = 0, 0
		g.s.addAlone(j.ctx, j)
	}
}

// groupOrder orders a group's additions so that any two groups take the
// row locks of the list counters they share in the same order, and so
// never deadlock on them: by workspace, hour, kind, counters and id.
func groupOrder(x, y *groupJob) int {
	if c := cmp.Compare(x.workspaceID, y.workspaceID); c != 0 {
		return c
	}
	if c := x.a.createdAt.Truncate(time.Hour).Compare(y.a.createdAt.Truncate(time.Hour)); c != 0 {
		return c
	}
	if c := cmp.Compare(x.a.event, y.a.event); c != 0 {
		return c
	}
	c := slices.CompareFunc(x.a.counters, y.a.counters, func(p, q counter) int {
		return cmp.Or(cmp.Compare(p.list, q.list), cmp.Compare(p.scope, q.scope))
	})
	return cmp.Or(c, cmp.Compare(x.a.id, y.a.id)) // two groups that repeat an id wait for each other
}

// addAlone runs j's statement by itself, as the first event of its own
// implicit transaction.
func (s *Store) addAlone(ctx context.Context, j *groupJob) {
	j.stmt.Args[len(j.stmt.Args)-1] = int64(0)
	j.err = s.db.QueryRow(ctx, j.stmt.Query, j.stmt.Args...).Scan(&j.seq, &j.deliveries)
}

// addGroup runs the statements of js in one pipeline, which PostgreSQL
// runs as one implicit transaction: all commit, or none.
func (s *Store) addGroup(ctx context.Context, js []*groupJob) error {
	stmts := make([]Statement, len(js))
	for i, j := range js {
		j.stmt.Args[len(j.stmt.Args)-1] = int64(i)
		stmts[i] = j.stmt
	}
	return s.pipe.Pipeline(ctx, stmts, func(i int, rows Rows) error {
		if !rows.Next() {
			return cmp.Or(rows.Err(), ErrNoRows)
		}
		return rows.Scan(&js[i].seq, &js[i].deliveries)
	})
}

// groupsRunning is how many groups may run at once (see grouper): one
// commits while the next one's statements run. With 1, 2 or 4, ingest
// at 16 connections ran at 1,461–1,556, 1,707–2,034 and 1,591–1,728
// submissions a second on the benchmark's stage.
const groupsRunning = 2

// WaitingAdditions returns how many additions wait for a group to
// commit them (see grouper), for monitoring and tests.
func (s *Store) WaitingAdditions() int {
	s.group.mu.Lock()
	defer s.group.mu.Unlock()
	return len(s.group.queue)
}
