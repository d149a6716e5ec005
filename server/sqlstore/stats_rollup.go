package sqlstore

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"
	"time"

	"github.com/feedbackhq/feedback/shared/feedback"
)

// The hourly statistics (stats_add.go) are kept by a rollup of the
// submissions' *.created events, not by the statements that insert
// them: RollupStats adds a workspace's events after its stats_cursors
// row in batches, and a read adds the events after the cursor it read
// with the counters (statsTail), so every statistic holds every
// submission committed before the read. See 00018_stats_rollup.sql.

// errStatsCursorMoved rolls back a rollup whose cursor another instance
// advanced first.
var errStatsCursorMoved = errors.New("the statistics cursor moved")

// statsCursorSQL is a scalar subquery of the workspace's ($1) cursor, 0
// when it has none; the counters' queries select it first, so that it
// and the counters come from one snapshot.
const statsCursorSQL = `(SELECT COALESCE(MAX(seq), 0) FROM stats_cursors WHERE workspace_id = $1)`

// StatsWorkspaces returns the workspaces with events that the
// statistics have not rolled up yet.
func (s *Store) StatsWorkspaces(ctx context.Context) (_ []string, err error) {
	defer wrap(&err, "StatsWorkspaces")
	rows, err := s.db.Query(ctx, `SELECT w.id FROM workspaces w
		WHERE EXISTS (SELECT 1 FROM events e WHERE e.workspace_id = w.id
			AND e.seq > COALESCE((SELECT c.seq FROM stats_cursors c WHERE c.workspace_id = w.id), 0))`)
	if err != nil {
		return nil, err
	}
	return collect(rows, scanString)
}

// RollupStats adds the workspace's events after its cursor to the
// hourly statistics and returns how many events it read. Each batch is
// one transaction that adds its sums and advances the cursor by
// compare-and-set: if another instance advanced it first, the
// transaction rolls back and the batch is read again from the new
// cursor, so each event counts once across instances.
func (s *Store) RollupStats(ctx context.Context, workspaceID string) (read int, err error) {
	defer wrap(&err, "RollupStats(%s)", workspaceID)
	if !canonical(&workspaceID) {
		return 0, nil
	}
	for {
		n, err := s.rollupBatch(ctx, workspaceID)
		if errors.Is(err, errStatsCursorMoved) {
			continue
		}
		read += n
		if err != nil || n < feedback.MaxEventLimit {
			return read, err
		}
	}
}

// rollupBatch rolls up one batch of events after the cursor and returns
// how many it read.
func (s *Store) rollupBatch(ctx context.Context, workspaceID string) (int, error) {
	var cursor int64
	if err := s.db.QueryRow(ctx, "SELECT "+statsCursorSQL, workspaceID).Scan(&cursor); err != nil {
		return 0, err
	}
	events, err := s.Events(ctx, workspaceID, cursor, feedback.MaxEventLimit)
	if err != nil || len(events) == 0 {
		return 0, err
	}
	sums, err := s.sumStats(ctx, workspaceID, events)
	if err != nil {
		return 0, err
	}
	last := events[len(events)-1].Seq
	return len(events), s.db.InTx(ctx, func(tx Conn) error {
		for _, table := range slices.Sorted(maps.Keys(sums)) {
			if err := upsertStats(ctx, tx, s.dialect, workspaceID, sums[table]); err != nil {
				return err
			}
		}
		moved, err := tx.Exec(ctx, `INSERT INTO stats_cursors (workspace_id, seq) VALUES ($1, $3)
			ON CONFLICT (workspace_id) DO UPDATE SET seq = excluded.seq WHERE stats_cursors.seq = $2`,
			workspaceID, cursor, last)
		if err == nil && moved == 0 {
			err = errStatsCursorMoved
		}
		return err
	})
}

// statsRow is what one or more submissions add to one row of a table of
// statistics: the row's keys (between workspace_id and bucket), its hour
// and the additions to the table's count columns.
type statsRow struct {
	keys []any
	hour time.Time
	adds []int64
}

// tableSums are the rows that a batch adds to one table, summed by key
// and hour.
type tableSums struct {
	a    statsAddition // the table, its keys and count columns
	rows map[string]*statsRow
	keys []string // rows' keys in the order first added
}

// sumStats sums what events add to each table, by table name.
func (s *Store) sumStats(ctx context.Context, workspaceID string, events []feedback.Event) (map[string]*tableSums, error) {
	types := map[string]map[string]feedback.QuestionType{}
	surveyTypes := func(id string) (map[string]feedback.QuestionType, error) {
		if t, ok := types[id]; ok {
			return t, nil
		}
		t, err := s.questionTypes(ctx, workspaceID, id)
		types[id] = t
		return t, err
	}
	sums := map[string]*tableSums{}
	for _, e := range events {
		a, hour, ok, err := eventAddition(e, surveyTypes)
		if err != nil {
			return nil, err
		}
		if !ok {
			continue
		}
		t := sums[a.table]
		if t == nil {
			t = &tableSums{a: a, rows: map[string]*statsRow{}}
			sums[a.table] = t
		}
		for _, r := range a.at(hour) {
			t.add(r)
		}
	}
	return sums, nil
}

// add adds r to the row of its keys and hour.
func (t *tableSums) add(r statsRow) {
	key := fmt.Sprint(r.keys, r.hour.Unix())
	if have := t.rows[key]; have != nil {
		for i, n := range r.adds {
			have.adds[i] += n
		}
		return
	}
	r.adds = slices.Clone(r.adds)
	t.rows[key] = &r
	t.keys = append(t.keys, key)
}

// eventAddition returns what the submission of a *.created event adds to
// the statistics, in the UTC hour of its captured_at; ok is false for
// other events. surveyTypes returns a survey's question types.
func eventAddition(e feedback.Event, surveyTypes func(string) (map[string]feedback.QuestionType, error)) (
	a statsAddition, hour time.Time, ok bool, err error) {
	var captured feedback.Time
	switch e.Type {
	case feedback.EventHygieneSubmissionCreated:
		var h feedback.HygieneSubmission
		err = json.Unmarshal(e.Data, &h)
		a, captured = hygieneAddition(&h), h.CapturedAt
	case feedback.EventReviewResponseCreated:
		var r feedback.ReviewResponse
		err = json.Unmarshal(e.Data, &r)
		a, captured = reviewAddition(&r), r.CapturedAt
	case feedback.EventSurveyResponseCreated:
		var r feedback.SurveyResponse
		if err = json.Unmarshal(e.Data, &r); err == nil {
			var types map[string]feedback.QuestionType
			types, err = surveyTypes(r.SurveyID)
			a, captured = surveyAddition(&r, types), r.CapturedAt
		}
	default:
		return a, hour, false, nil
	}
	if err != nil {
		return a, hour, false, fmt.Errorf("event %s: %w", e.ID, err)
	}
	return a, captured.UTC().Truncate(time.Hour), true, nil
}

// at returns a's rows in hour.
func (a statsAddition) at(hour time.Time) []statsRow {
	rows := make([]statsRow, len(a.rows))
	for i, keys := range a.rows {
		rows[i] = statsRow{keys: keys, hour: hour, adds: a.adds}
	}
	return rows
}

// upsertRowsMax is the most rows one upsert of upsertStats adds, well
// within SQLite's limit on parameters.
const upsertRowsMax = 500

// upsertStats adds t's rows to its table, in statements of at most
// upsertRowsMax rows, into shard 0 (readers sum the shards).
func upsertStats(ctx context.Context, tx Conn, d Dialect, workspaceID string, t *tableSums) error {
	a := t.a
	set := make([]string, len(a.counts))
	for i, c := range a.counts {
		set[i] = fmt.Sprintf("%s = %s.%s + excluded.%s", c, a.table, c, c)
	}
	key := "workspace_id, " + strings.Join(a.keys, ", ") + ", bucket, shard"
	for chunk := range slices.Chunk(t.keys, upsertRowsMax) {
		args := []any{workspaceID}
		param := func(v any) string {
			args = append(args, v)
			return fmt.Sprintf("$%d", len(args))
		}
		values := make([]string, len(chunk))
		for i, k := range chunk {
			r := t.rows[k]
			vals := []string{"$1"}
			for _, key := range r.keys {
				vals = append(vals, param(key))
			}
			vals = append(vals, param(r.hour), "0") // the bucket, shard 0
			for _, n := range r.adds {
				vals = append(vals, param(n))
			}
			values[i] = "(" + strings.Join(vals, ", ") + ")"
		}
		_, err := tx.Exec(ctx, "INSERT INTO "+a.table+" ("+key+", "+strings.Join(a.counts, ", ")+") VALUES "+
			strings.Join(values, ", ")+" ON CONFLICT ("+key+") DO UPDATE SET "+strings.Join(set, ", "), args...)
		if err != nil {
			return err
		}
	}
	return nil
}
