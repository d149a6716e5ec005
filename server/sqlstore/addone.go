package sqlstore

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/feedbackhq/feedback/shared/feedback"
)

// addInOne is add as one statement where the dialect has writable CTEs
// (PostgreSQL): the record's INSERT, its event, the event's deliveries
// and the list counters, each of the last three only when the first
// inserted a row, in one implicit transaction and one round trip. Only
// a repeated id takes a second one, to compare the stored body's hash.
// The statistics count the event later (see stats_rollup.go).
func addInOne[T any](ctx context.Context, s *Store, workspaceID string, rec *T, hash []byte, a addition,
	scan func(Row) (T, error)) (bool, error) {
	data, err := recordJSON(rec)
	if err != nil {
		return false, err
	}
	now := s.now()
	eventID := feedback.NewIDAt(now)
	args := append(slices.Clone(a.args), eventID, a.event, now, string(data), eventID[:19],
		a.createdAt.UTC().Truncate(time.Hour))
	for _, c := range a.counters {
		args = append(args, c.list, c.scope)
	}
	args = append(args, int64(0)) // the event's ordinal in its transaction (see grouper)
	j := &groupJob{ctx: ctx, workspaceID: workspaceID, a: &a, stmt: Statement{s.addOneSQL(a), args}}
	s.group.add(j)
	seq, deliveries, err := j.seq, j.deliveries, j.err
	if errors.Is(err, ErrForeignKey) {
		return false, feedback.Errorf(feedback.ENotFound,
			"The location, poster or form of submission %s does not exist in the workspace.", a.id)
	}
	if err != nil {
		return false, err
	}
	if seq > 0 {
		if deliveries > 0 {
			s.due()
		}
		s.evented(workspaceID, seq)
		return true, nil
	}
	var stored []byte
	v, err := scan(hashRow{s.db.QueryRow(ctx, a.find, workspaceID, a.id), &stored})
	if errors.Is(err, ErrNoRows) {
		return false, errRefused
	}
	if err != nil {
		return false, err
	}
	if !bytes.Equal(stored, hash) {
		return false, feedback.Errorf(feedback.EIdempotencyConflict,
			"A submission with id %s was already stored with a different body.", a.id)
	}
	*rec = v
	return false, nil
}

// addOneSQL returns addInOne's statement for a, built once per kind of
// record: its text depends on the record's INSERT and the number of its
// arguments and counters, never on their values. The parameters after
// a.args are the event's id, type, time and data, the deliveries' id
// prefix, the counters' hour, each counter's list and scope, then the
// event's ordinal in its transaction.
func (s *Store) addOneSQL(a addition) string {
	key := a.event + "/" + strconv.Itoa(len(a.counters))
	if q, ok := s.addSQL.Load(key); ok {
		return q.(string)
	}
	n := len(a.args)
	param := func(any) string {
		n++
		return fmt.Sprintf("$%d", n)
	}
	id, typ, at := param(nil), param(nil), param(nil)
	ordinal := fmt.Sprintf("$%d", n+3+2*len(a.counters)+1) // after data, prefix, bucket and the counters'
	q := `WITH ins AS (` + a.insert + ` RETURNING 1),
		ev AS (INSERT INTO events (` + eventColumns + `) SELECT $1, ` + s.dialect.EventSeq(ordinal) + `, ` + id + `, ` + typ +
		`, ` + at + `, ` + param(nil) + ` FROM ins RETURNING seq),
		dl AS (` + s.fanOutSQL("ev, ", "ev.seq", id, typ, at, param(nil)) + ` RETURNING 1),
		ct AS (` + countAddedSQL(s.dialect, param(nil), a.counters, param) + `)
		SELECT COALESCE((SELECT seq FROM ev), 0), (SELECT COUNT(*) FROM dl)`
	s.addSQL.Store(key, q)
	return q
}

// recordJSON encodes a record as encoding/json does: by its own
// appender when it has one (feedback.JSONAppender), without reflection.
func recordJSON(rec any) ([]byte, error) {
	if a, ok := rec.(feedback.JSONAppender); ok {
		return a.AppendJSON(make([]byte, 0, 512)), nil
	}
	return json.Marshal(rec)
}

// countAddedSQL is countAdded's statement for addInOne: one row per
// counter of cs, of the hour in parameter bucket, for each row of ins
// (none when the record was already stored). param adds an argument.
func countAddedSQL(d Dialect, bucket string, cs []counter, param func(any) string) string {
	rows := make([]string, len(cs))
	for i, c := range cs {
		list, scope := param(c.list), param(c.scope)
		rows[i] = fmt.Sprintf("SELECT CAST($1 AS uuid), CAST(%s AS text), CAST(%s AS uuid), CAST(%s AS timestamptz), 1, %s FROM ins",
			list, scope, bucket, d.CountShard)
	}
	return `INSERT INTO list_counts (workspace_id, list, scope, bucket, n, shard) ` + strings.Join(rows, " UNION ALL ") + `
		ON CONFLICT (workspace_id, list, scope, bucket, shard) DO UPDATE SET n = list_counts.n + 1`
}
