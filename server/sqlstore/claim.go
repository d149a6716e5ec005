package sqlstore

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/feedbackhq/feedback/server"
)

// claimWindow is how many due deliveries, oldest first, one round of a
// claim reads per delivery it may take.
const claimWindow = 4

// claimRounds bounds the rounds of a claim: each reads the next window
// of due deliveries, leaving out the subscriptions that are full.
const claimRounds = 4

// candidate is a due delivery a claim may take.
type candidate struct {
	key  [2]string // workspace_id, id
	sub  [2]string // workspace_id, webhook_id
	next time.Time
}

// claimKeys chooses the deliveries a claim takes: it reads how many
// deliveries each subscription has leased and which subscriptions are
// disabled, then the due deliveries oldest first a window at a time,
// without the subscriptions that are full, disabled or skipped, and
// takes them in turns (see turns).
func claimKeys(ctx context.Context, tx Conn, now time.Time, c server.Claim) ([][2]string, error) {
	busy, off, err := subscriptionLoads(ctx, tx, now)
	if err != nil {
		return nil, err
	}
	t := turns{busy: busy, cap: c.PerWebhook, limit: c.Limit}
	window := claimWindow * c.Limit
	var after *candidate
	rounds := claimRounds
	if c.Refill {
		rounds = 1
	}
	for round := 0; round < rounds && len(t.taken) < c.Limit; round++ {
		skip := append(append(t.full(), off...), c.Skip...)
		cands, err := dueCandidates(ctx, tx, now, skip, after, window)
		if err != nil {
			return nil, err
		}
		t.take(cands)
		if len(cands) < window {
			break
		}
		after = &cands[len(cands)-1]
	}
	return t.taken, nil
}

// subscriptionLoads returns the live leases of each subscription (the
// partial index deliveries_leased holds only leased rows) and the ids of
// the disabled subscriptions, in one query.
func subscriptionLoads(ctx context.Context, tx Conn, now time.Time) (map[[2]string]int, []string, error) {
	rows, err := tx.Query(ctx, `SELECT workspace_id, webhook_id, COUNT(*) FROM deliveries
			WHERE leased_by IS NOT NULL AND lease_until > $1 GROUP BY workspace_id, webhook_id
		UNION ALL SELECT workspace_id, id, -1 FROM webhooks WHERE disabled_at IS NOT NULL`, now)
	if err != nil {
		return nil, nil, err
	}
	busy := map[[2]string]int{}
	var off []string
	_, err = collect(rows, func(r Row) (struct{}, error) {
		var k [2]string
		var n int
		err := r.Scan(&k[0], &k[1], &n)
		if n < 0 {
			off = append(off, k[1])
		} else {
			busy[k] = n
		}
		return struct{}{}, err
	})
	return busy, off, err
}

// dueCandidates reads up to limit claimable deliveries after the cursor
// after, oldest first, leaving out the subscriptions of skip: a range of
// the partial index deliveries_due, with no join that could lead the
// planner elsewhere.
func dueCandidates(ctx context.Context, tx Conn, now time.Time, skip []string, after *candidate, limit int) ([]candidate, error) {
	q := `SELECT d.workspace_id, d.id, d.webhook_id, d.next_attempt_at FROM deliveries d
		WHERE d.status = 'pending' AND d.next_attempt_at <= $1 AND (d.lease_until IS NULL OR d.lease_until <= $1)`
	args := []any{now, limit}
	if after != nil {
		q += ` AND (d.next_attempt_at > $3 OR (d.next_attempt_at = $3 AND d.id > $4))`
		args = append(args, after.next, after.key[1])
	}
	if len(skip) > 0 {
		ids := make([]any, len(skip))
		for i, id := range skip {
			ids[i] = id
		}
		ids = padded(ids)
		q += ` AND d.webhook_id NOT IN (` + marks(len(args), len(ids)) + `)`
		args = append(args, ids...)
	}
	rows, err := tx.Query(ctx, q+` ORDER BY d.next_attempt_at, d.id LIMIT $2`, args...)
	if err != nil {
		return nil, err
	}
	return collect(rows, func(r Row) (candidate, error) {
		var c candidate
		err := r.Scan(&c.key[0], &c.key[1], &c.sub[1], atTime(&c.next))
		c.sub[0] = c.key[0]
		return c, err
	})
}

// padded returns vs repeated at its end to a power of two in length, so
// that a statement with an IN list of vs has few distinct texts and its
// prepared forms are reused (pgx caches them by text).
func padded(vs []any) []any {
	n := 1
	for n < len(vs) {
		n *= 2
	}
	for len(vs) > 0 && len(vs) < n {
		vs = append(vs, vs[len(vs)-1])
	}
	return vs
}

// marks returns n placeholders numbered after the first skip ones.
func marks(skip, n int) string {
	m := make([]string, n)
	for i := range m {
		m[i] = fmt.Sprintf("$%d", skip+i+1)
	}
	return strings.Join(m, ", ")
}

// turns takes due deliveries in turns across subscriptions: the oldest
// of each subscription with room, then the second of each, and so on,
// never beyond a subscription's cap (its live leases included) or the
// claim's limit.
type turns struct {
	busy  map[[2]string]int
	cap   int
	limit int
	taken [][2]string
}

// take takes from cands, which are oldest first.
func (t *turns) take(cands []candidate) {
	var order [][2]string // subscriptions by their oldest candidate
	lines := map[[2]string][][2]string{}
	for _, c := range cands {
		if _, ok := lines[c.sub]; !ok {
			order = append(order, c.sub)
		}
		lines[c.sub] = append(lines[c.sub], c.key)
	}
	for turn := 0; len(t.taken) < t.limit; turn++ {
		took := false
		for _, sub := range order {
			if turn < len(lines[sub]) && t.busy[sub] < t.cap && len(t.taken) < t.limit {
				t.taken = append(t.taken, lines[sub][turn])
				t.busy[sub]++
				took = true
			}
		}
		if !took {
			return
		}
	}
}

// full returns the webhook ids of the subscriptions at their cap.
func (t *turns) full() []string {
	var ids []string
	for sub, n := range t.busy {
		if n >= t.cap {
			ids = append(ids, sub[1])
		}
	}
	return ids
}
