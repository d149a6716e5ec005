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
		values[i] = fmt.Sprintf("($1, %s, %s, $2, 1, %s)", list, scope, d.CountShard)
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
// sum of the counters of the whole hours in the range plus, at each edge
// that is not on the hour, a count of the rows in the part of an hour
// that the range holds, through the index that ends with created_at. The
// closed hours' sums come from s.hours; one statement reads the rest (the
// hours since, and the edges), and none is run when there is nothing
// else to read. The same sums, walked from the newest hour, find the
// hour that holds the row at offset, so that the page seeks into that
// hour through the index instead of skipping every newer row. Otherwise
// the total is a plain COUNT(*), which can read at most two hours' rows
// when q has a counter, and the page skips offset rows from to.
func (q listQuery) count(ctx context.Context, s *Store, args []any, from, to time.Time, offset int) (int, start, error) {
	st, sp, err := q.countStatement(ctx, s, args, from, to)
	if err != nil {
		return 0, start{}, err
	}
	if sp == nil {
		total := 0
		err := s.queryChecked(ctx, st, func(rows Rows) (err error) {
			total, err = scanCount(rows)
			return err
		})
		return total, start{upper: to}, err
	}
	if st.Query != "" {
		if err := s.queryChecked(ctx, st, func(rows Rows) error { return scanOpen(rows, sp) }); err != nil {
			return 0, start{}, err
		}
	}
	total, at := sp.seek(offset)
	if at.upper.IsZero() {
		at.upper = to
	}
	return total, at, nil
}

// countStatement returns the statement that counts q's rows in
// [from, to) (see [listQuery.count]). When q's counters apply, it also
// returns the span with the closed hours, which the statement's rows (if
// it has a query) complete through [scanOpen]; otherwise the statement is
// a COUNT(*).
func (q listQuery) countStatement(ctx context.Context, s *Store, args []any, from, to time.Time) (Statement, *span, error) {
	first, last := ceilHour(from), to.Truncate(time.Hour)
	if q.counter == nil || !first.Before(last) {
		return Statement{q.countRows("$2", "$3"), args}, nil, nil
	}
	closed, end, err := s.hours.get(ctx, s.db, seriesKey{args[0].(string), *q.counter}, s.now())
	if err != nil {
		return Statement{}, nil, err
	}
	sp := &span{first: first, last: last, closedEnd: end, closed: closed}
	query, qargs := q.openQuery(args, from, to, sp)
	return Statement{query, qargs}, sp, nil
}

// mustRows turns a failed query into rows that report its error.
func mustRows(rows Rows, err error) Rows {
	if err != nil {
		return errRows{err}
	}
	return rows
}

// errRows are the rows of a query that failed.
type errRows struct{ err error }

func (errRows) Next() bool        { return false }
func (errRows) Scan(...any) error { return nil }
func (r errRows) Err() error      { return r.err }
func (errRows) Close()            {}

// span is what count knows of a range: its whole hours [first, last),
// the rows of its partial hours at the top and the bottom, the hours from
// closedEnd on (open, newest first) and the closed ones before it.
type span struct {
	first, last time.Time
	top, bottom int
	closedEnd   time.Time
	open        []hourCount
	closed      []hourCount // every closed hour of the series
}

// seek returns the span's total and where the page at offset begins: a
// zero upper means the range's own end.
func (sp span) seek(offset int) (int, start) {
	found, at, acc := offset < sp.top, start{}, sp.top
	visit := func(h hourCount) {
		if !found && acc+int(h.n) > offset {
			found, at = true, start{upper: h.start().Add(time.Hour), skip: acc}
		}
		acc += int(h.n)
	}
	for _, h := range sp.open {
		visit(h)
	}
	lo, hi := epochHour(sp.first), epochHour(earlier(sp.last, sp.closedEnd))
	for _, h := range sp.closed {
		if int64(h.hour) >= lo && int64(h.hour) < hi {
			visit(h)
		}
	}
	if !found {
		at = start{upper: sp.first, skip: acc}
	}
	return acc + sp.bottom, at
}

// earlier returns the earlier of a and b.
func earlier(a, b time.Time) time.Time {
	if a.Before(b) {
		return a
	}
	return b
}

// scanOpen reads into sp the rows of the statement of openQuery and
// closes them.
func scanOpen(rows Rows, sp *span) error {
	defer rows.Close()
	for rows.Next() {
		var kind, n int
		var bucket *time.Time
		if err := rows.Scan(&kind, atOptTime(&bucket), &n); err != nil {
			return err
		}
		switch {
		case kind == 1:
			sp.top = n
		case kind == 2:
			sp.bottom = n
		case bucket != nil:
			sp.open = append(sp.open, hourCount{hour: int32(epochHour(*bucket)), n: uint32(n)})
		}
	}
	slices.SortFunc(sp.open, func(a, b hourCount) int { return int(b.hour - a.hour) })
	return rows.Err()
}

// openQuery returns the statement of the open hours and the edges and its arguments, or "" when
// there is nothing to read: rows of kind 0 are the open hours' sums,
// kind 1 the top edge's rows and kind 2 the bottom's. The edges' counts
// use the page's arguments (each of which PostgreSQL requires to be
// used: both edges bound created_at by $2 and $3 as well), the hours'
// sums only the workspace.
func (q listQuery) openQuery(args []any, from, to time.Time, sp *span) (string, []any) {
	var parts []string
	args = slices.Clone(args) // the page's own stay as they are
	if !sp.last.Before(to) && !from.Before(sp.first) {
		args = args[:1]
	}
	param := func(v any) string {
		args = append(args, v)
		return fmt.Sprintf("$%d", len(args))
	}
	if openFrom := later(sp.first, sp.closedEnd); openFrom.Before(sp.last) {
		parts = append(parts, fmt.Sprintf(`SELECT 0, bucket, CAST(SUM(n) AS BIGINT) FROM list_counts
			WHERE workspace_id = $1 AND list = %s AND scope = %s AND bucket >= %s AND bucket < %s GROUP BY bucket`,
			param(q.counter.list), param(q.counter.scope), param(openFrom), param(sp.last)))
	}
	if sp.last.Before(to) {
		parts = append(parts, "SELECT 1, NULL, COUNT(*)"+q.rowsFrom(param(sp.last), "$3")+" AND created_at >= $2")
	}
	if from.Before(sp.first) {
		parts = append(parts, "SELECT 2, NULL, COUNT(*)"+q.rowsFrom("$2", param(sp.first))+" AND created_at < $3")
	}
	return strings.Join(parts, " UNION ALL "), args
}

// later returns the later of a and b.
func later(a, b time.Time) time.Time {
	if a.After(b) {
		return a
	}
	return b
}

// countRows returns the statement that counts q's rows whose created_at
// lies in [lo, hi), two placeholders.
func (q listQuery) countRows(lo, hi string) string {
	return "SELECT COUNT(*)" + q.rowsFrom(lo, hi)
}

// rowsFrom returns the FROM and WHERE clauses of q's rows whose
// created_at lies in [lo, hi), two placeholders.
func (q listQuery) rowsFrom(lo, hi string) string {
	return " FROM " + q.table + " WHERE workspace_id = $1 AND created_at >= " + lo +
		" AND created_at < " + hi + q.where
}

// ceilHour returns the first whole hour (UTC) at or after t.
func ceilHour(t time.Time) time.Time {
	h := t.Truncate(time.Hour)
	if h.Before(t) {
		h = h.Add(time.Hour)
	}
	return h
}
