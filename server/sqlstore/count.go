package sqlstore

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"time"
)

// The series of list_counts, the hourly counters of the lists that grow
// without bound: what visitors submit. A name is the table and, after a
// dot, the column whose value the counter's scope holds; a name without
// a column counts a whole workspace, under the scope [wholeWorkspace].
// The migration that made the table (00002_list_counts.sql) uses the
// same names to backfill them.
const (
	hygieneCount         = "hygiene_submissions"
	hygieneLocationCount = "hygiene_submissions.location_id"
	reviewResponseCount  = "review_responses.review_id"
	surveyResponseCount  = "survey_responses.survey_id"
)

// wholeWorkspace is the scope of a series that counts a whole workspace.
const wholeWorkspace = "00000000-0000-0000-0000-000000000000"

// counter names one series of hourly counters: the rows of a list that
// match one value of its filter.
type counter struct {
	list  string // one of the names above
	scope string // a UUID: the filter's value, or wholeWorkspace
}

// countAdded adds one to the counters cs of the hour of createdAt, in one
// statement of the transaction that inserted the row. Call it only for a
// row that was inserted: a repeated or conflicting submission counts
// nothing. Each series' hour may have several rows, its shards (see
// Dialect.CountShard), which totals add up: writers of one workspace do
// not wait for each other's commits on one counter row.
//
// Nothing deletes submissions yet. A retention job that does must
// subtract, in the transaction of its DELETE, the rows it deletes from
// every series that counted them (grouped by hour as here), or totals
// will count rows that are gone.
func countAdded(ctx context.Context, tx Conn, d Dialect, workspaceID string, createdAt time.Time, cs []counter) error {
	if len(cs) == 0 {
		return nil
	}
	args := []any{workspaceID, createdAt.UTC().Truncate(time.Hour)}
	values := make([]string, len(cs))
	for i, c := range cs {
		args = append(args, c.list, c.scope)
		list, scope := fmt.Sprintf("$%d", len(args)-1), fmt.Sprintf("$%d", len(args))
		values[i] = fmt.Sprintf("($1, %s, %s, $2, 1, %s)", list, scope, d.CountShard("$2", list, scope))
	}
	_, err := tx.Exec(ctx, `INSERT INTO list_counts (workspace_id, list, scope, bucket, n, shard) VALUES `+
		strings.Join(values, ", ")+`
		ON CONFLICT (workspace_id, list, scope, bucket, shard) DO UPDATE SET n = list_counts.n + 1`, args...)
	return err
}

// countQuery returns the statement, and its arguments, that counts q's
// rows whose created_at lies in [from, to); args are those of the page,
// $1 the workspace, $2 from, $3 to and then q.args.
//
// When q has a counter and the range holds a whole hour, that is the sum
// of the counters of the whole hours in the range plus, at each edge, a
// count of the rows in the part of an hour that the range holds, through
// the index that ends with created_at. The edges are counted even when
// empty (from or to on the hour, as the bounds of an unbounded list are):
// a range scan that finds nothing costs one descent of the index, and
// each argument is used, which PostgreSQL requires. Otherwise it is a
// plain COUNT(*), which can read at most two hours' rows when q has a
// counter.
func (q listQuery) countQuery(args []any, from, to time.Time) (string, []any) {
	count := func(lo, hi string) string {
		return "SELECT COUNT(*) FROM " + q.table + " WHERE workspace_id = $1 AND created_at >= " + lo +
			" AND created_at < " + hi + q.where
	}
	first, last := ceilHour(from), to.Truncate(time.Hour)
	if q.counter == nil || !first.Before(last) {
		return count("$2", "$3"), args
	}
	n := len(args)
	args = slices.Concat(args, []any{first, last, q.counter.list, q.counter.scope})
	lo, hi := fmt.Sprintf("$%d", n+1), fmt.Sprintf("$%d", n+2)
	sum := fmt.Sprintf(`SELECT CAST(COALESCE(SUM(n), 0) AS BIGINT) FROM list_counts
		WHERE workspace_id = $1 AND list = $%d AND scope = $%d AND bucket >= %s AND bucket < %s`, n+3, n+4, lo, hi)
	return "SELECT (" + count("$2", lo) + ") + (" + sum + ") + (" + count(hi, "$3") + ")", args
}

// ceilHour returns the first whole hour (UTC) at or after t.
func ceilHour(t time.Time) time.Time {
	h := t.Truncate(time.Hour)
	if h.Before(t) {
		h = h.Add(time.Hour)
	}
	return h
}
