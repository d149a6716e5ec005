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

// start is where a page begins: at the newest of q's rows whose
// created_at lies before upper, after skip of them.
type start struct {
	upper time.Time
	skip  int
}

// count returns the number of q's rows whose created_at lies in
// [from, to), and where the page at offset begins; args are those of the
// page, $1 the workspace, $2 from, $3 to and then q.args.
//
// When q has a counter and the range holds a whole hour, the total is the
// sum of the counters of the whole hours in the range plus, at each edge,
// a count of the rows in the part of an hour that the range holds, through
// the index that ends with created_at. The edges are counted even when
// empty (from or to on the hour, as the bounds of an unbounded list are):
// a range scan that finds nothing costs one descent of the index, and
// each argument is used, which PostgreSQL requires. The same statement
// finds the hour that holds the row at offset by summing counters from
// the newest hour, so that the page seeks into that hour through the
// index instead of skipping every newer row. Otherwise the total is a
// plain COUNT(*), which can read at most two hours' rows when q has a
// counter, and the page skips offset rows from to.
func (q listQuery) count(ctx context.Context, c Conn, args []any, from, to time.Time, offset int) (int, start, error) {
	query, args, seeks := q.countQuery(args, from, to, offset)
	if !seeks {
		var total int
		err := c.QueryRow(ctx, query, args...).Scan(&total)
		return total, start{upper: to}, err
	}
	var top, hours, bottom, newer int
	var hour *time.Time
	err := c.QueryRow(ctx, query, args...).Scan(&top, &hours, &bottom, atOptTime(&hour), &newer)
	total := top + hours + bottom
	switch {
	case offset < top:
		return total, start{upper: to}, err
	case hour != nil:
		return total, start{upper: hour.Add(time.Hour), skip: top + newer}, err
	}
	return total, start{upper: ceilHour(from), skip: top + hours}, err
}

// countQuery returns the statement of [listQuery.count] and its
// arguments, and whether it is the statement that sums counters and
// seeks (see [listQuery.seekQuery]) rather than a plain COUNT(*).
func (q listQuery) countQuery(args []any, from, to time.Time, offset int) (string, []any, bool) {
	first, last := ceilHour(from), to.Truncate(time.Hour)
	if q.counter == nil || !first.Before(last) {
		return q.countRows("$2", "$3"), args, false
	}
	n := len(args)
	return q.seekQuery(n), slices.Concat(args, []any{first, last, q.counter.list, q.counter.scope, offset}), true
}

// countRows returns the statement that counts q's rows whose created_at
// lies in [lo, hi), two placeholders.
func (q listQuery) countRows(lo, hi string) string {
	return "SELECT COUNT(*) FROM " + q.table + " WHERE workspace_id = $1 AND created_at >= " + lo +
		" AND created_at < " + hi + q.where
}

// seekQuery returns the statement of [listQuery.count] for a range that
// holds whole hours, whose first n arguments are the page's, followed by
// the first and the end of the whole hours, the counter's list and scope
// and the offset. It answers the rows of the partial hour at the top, of
// the whole hours and of the partial hour at the bottom, and the hour
// that holds the row at offset (NULL when it is not a whole hour) with
// the number of rows of the range newer than that hour but for the top's.
func (q listQuery) seekQuery(n int) string {
	lo, hi := fmt.Sprintf("$%d", n+1), fmt.Sprintf("$%d", n+2)
	return fmt.Sprintf(`WITH hours AS (SELECT bucket, n, CAST(SUM(n) OVER (ORDER BY bucket DESC) AS BIGINT) AS upto
		FROM (SELECT bucket, CAST(SUM(n) AS BIGINT) AS n FROM list_counts
			WHERE workspace_id = $1 AND list = $%d AND scope = $%d AND bucket >= %s AND bucket < %s GROUP BY bucket) AS b),
	top AS (%s),
	seek AS (SELECT bucket, upto - hours.n AS newer FROM hours, top
		WHERE top.c + hours.upto > CAST($%d AS BIGINT) ORDER BY bucket DESC LIMIT 1)
	SELECT (SELECT c FROM top), (SELECT CAST(COALESCE(MAX(upto), 0) AS BIGINT) FROM hours), (%s),
		(SELECT bucket FROM seek), COALESCE((SELECT newer FROM seek), 0)`,
		n+3, n+4, lo, hi, strings.Replace(q.countRows(hi, "$3"), "COUNT(*)", "COUNT(*) AS c", 1), n+5, q.countRows("$2", lo))
}

// ceilHour returns the first whole hour (UTC) at or after t.
func ceilHour(t time.Time) time.Time {
	h := t.Truncate(time.Hour)
	if h.Before(t) {
		h = h.Add(time.Hour)
	}
	return h
}
