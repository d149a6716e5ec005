package sqlstore

import (
	"context"
	"fmt"
	"slices"
	"time"

	"github.com/feedbackhq/feedback/shared/feedback"
)

// Bounds of created_at when a list has no from or to: every stored time
// lies between them, on both databases.
var (
	minTime = time.Date(1, 1, 1, 0, 0, 0, 0, time.UTC)
	maxTime = time.Date(9999, 12, 31, 0, 0, 0, 0, time.UTC)
)

// listQuery names the rows of one list: columns of table whose
// workspace_id is $1 and created_at lies in [$2, $3), and that also
// match where (" AND ..." with placeholders from $4, bound to args).
// The lists that grow without bound have a counter, the series of
// list_counts that counts the rows that match where; the others are
// counted row by row.
type listQuery struct {
	table, columns string
	where          string
	args           []any
	counter        *counter
}

// arg binds v to the next placeholder after the list's three and q's
// args, and returns the placeholder.
func (q *listQuery) arg(v any) string {
	q.args = append(q.args, v)
	return fmt.Sprintf("$%d", 3+len(q.args))
}

// and narrows q by cond, whose one verb is the placeholder bound to v.
func (q *listQuery) and(cond string, v any) {
	q.where += " AND " + fmt.Sprintf(cond, q.arg(v))
}

// list returns one page of q, newest first (created_at desc, id desc),
// and the number of rows of q (see [listQuery.count]). Every list
// filter has an index that leads with (workspace_id, ...) and ends with
// (created_at DESC, id DESC), so both statements are index scans. A list
// with a counter starts a deep page in the hour that holds its first row
// (below the hour's end, skipping only that hour's newer rows), so any
// page costs about what page 1 does. With p.After, the page is the rows
// after that cursor (see [after]) and the total still the whole list's.
func list[T any](ctx context.Context, s *Store, workspaceID string, q listQuery, p feedback.ListParams,
	scan func(Row) (T, error)) ([]T, int, error) {
	from, to := bounds(p)
	args := append([]any{workspaceID, from, to}, q.args...)
	cond := "workspace_id = $1 AND created_at >= $2 AND created_at < $3" + q.where
	limit, offset := pageBounds(p)
	if p.After != nil {
		offset = 0 // the page after the cursor, whatever p.Page says
	}
	if offset == 0 && s.pipe != nil {
		return firstPage(ctx, s, q, p, args, cond, from, to, limit, scan)
	}
	total, at, err := q.count(ctx, s, args, from, to, offset)
	if err != nil || offset >= total {
		return []T{}, total, err
	}
	args[2] = at.upper
	if p.After != nil {
		cond, args = after(cond, args, *p.After)
	}
	var items []T
	page := Statement{s.pageQuery(q, cond, len(args), offset > at.skip && s.dialect.SeekPages), append(args, limit, offset-at.skip)}
	err = s.queryChecked(ctx, page, func(rows Rows) (err error) {
		items, err = collectN(rows, scan, limit)
		return err
	})
	return items, total, err
}

// firstPage is list for a page that starts at the top of its range (page
// 1, or the page after a cursor), which needs nothing of the count: on a
// DB with a pipeline, the count's statement and the page's go in one
// round trip.
func firstPage[T any](ctx context.Context, s *Store, q listQuery, p feedback.ListParams, args []any, cond string,
	from, to time.Time, limit int, scan func(Row) (T, error)) ([]T, int, error) {
	counting, sp, err := q.countStatement(ctx, s, args, from, to)
	if err != nil {
		return nil, 0, err
	}
	pageArgs := slices.Clone(args)
	if p.After != nil {
		cond, pageArgs = after(cond, pageArgs, *p.After)
	}
	var items []T
	total := 0
	var stmts []Statement
	var reads []func(Rows) error
	if counting.Query != "" {
		stmts = append(stmts, counting)
		reads = append(reads, func(rows Rows) (err error) {
			if sp == nil {
				total, err = scanCount(rows)
				return err
			}
			return scanOpen(rows, sp)
		})
	}
	stmts = append(stmts, Statement{s.pageQuery(q, cond, len(pageArgs), false), append(pageArgs, limit, 0)})
	reads = append(reads, func(rows Rows) (err error) {
		items, err = collectN(rows, scan, limit)
		return err
	})
	if err := s.pipeChecked(ctx, stmts, reads); err != nil {
		return nil, 0, err
	}
	if sp != nil {
		total, _ = sp.seek(0)
	}
	return items, total, nil
}

// scanCount reads the one number of a COUNT(*).
func scanCount(rows Rows) (int, error) {
	defer rows.Close()
	n := 0
	if rows.Next() {
		if err := rows.Scan(&n); err != nil {
			return 0, err
		}
	}
	return n, rows.Err()
}

// pageQuery returns the SELECT of a page of q's rows that match cond
// (n arguments), newest first, followed by LIMIT and the number of rows
// to skip. When it skips (anchor), it finds the page's first row by a
// scan of the index alone and reads the page's rows from it on, rather
// than reading every skipped row. Both numbers are placeholders in
// Dialect.LimitParam's form.
func (s *Store) pageQuery(q listQuery, cond string, n int, anchor bool) string {
	const order = " ORDER BY created_at DESC, id DESC"
	limit, skip := s.limitParam(n+1), s.limitParam(n+2)
	if !anchor {
		return fmt.Sprintf("SELECT %s FROM %s WHERE %s%s LIMIT %s OFFSET %s", q.columns, q.table, cond, order, limit, skip)
	}
	return fmt.Sprintf("SELECT %s FROM %s WHERE %s AND (created_at, id) <= (SELECT created_at, id FROM %s WHERE %s%s LIMIT 1 OFFSET %s)%s LIMIT %s",
		q.columns, q.table, cond, q.table, cond, order, skip, order, limit)
}

// limitParam returns placeholder $i as a LIMIT or OFFSET (see
// Dialect.LimitParam).
func (s *Store) limitParam(i int) string {
	p := fmt.Sprintf("$%d", i)
	if s.dialect.LimitParam == "" {
		return p
	}
	return fmt.Sprintf(s.dialect.LimitParam, p)
}

// after narrows cond, with its args, to the rows after the cursor a in
// list order. The bound on created_at alone is what the index seeks to;
// the rest only drops the rows of a's created_at that come before it.
// The list's own upper bound (args[2], exclusive) is lowered to just
// above a's created_at too: SQLite seeks by one upper bound of a range,
// and when it took the list's, every page after a cursor scanned the
// index from the top (an export of a million rows took 24 s). Stored
// times are whole microseconds, so created_at < a+1µs is created_at <= a.
func after(cond string, args []any, a feedback.Cursor) (string, []any) {
	if to, ok := args[2].(time.Time); ok {
		if upper := a.CreatedAt.Add(time.Microsecond); upper.Before(to) {
			args[2] = upper
		}
	}
	n := len(args)
	return cond + fmt.Sprintf(" AND created_at <= $%d AND (created_at < $%d OR id < $%d)", n+1, n+1, n+2),
		append(args, a.CreatedAt, a.ID)
}

// bounds returns p's created_at range [from, to): minTime and maxTime
// where p leaves it open.
func bounds(p feedback.ListParams) (from, to time.Time) {
	from, to = minTime, maxTime
	if p.From != nil {
		from = *truncate(p.From)
	}
	if p.To != nil {
		to = *truncate(p.To)
	}
	return from, to
}

// pageBounds returns LIMIT and OFFSET for p, with the defaults of
// [feedback.ParseListParams] for values out of range.
func pageBounds(p feedback.ListParams) (limit, offset int) {
	if p.PerPage < 1 || p.PerPage > feedback.MaxPerPage {
		p.PerPage = feedback.DefaultPerPage
	}
	if p.Page < 1 || p.Page > feedback.MaxPage {
		p.Page = 1
	}
	return p.PerPage, p.Offset()
}

// collect scans every row and closes rows. It never returns a nil slice
// with a nil error.
func collect[T any](rows Rows, scan func(Row) (T, error)) ([]T, error) {
	return collectN(rows, scan, 0)
}

// collectN is collect for at most n rows expected: it allocates their
// room once.
func collectN[T any](rows Rows, scan func(Row) (T, error), n int) ([]T, error) {
	defer rows.Close()
	items := make([]T, 0, n)
	for rows.Next() {
		v, err := scan(rows)
		if err != nil {
			return nil, err
		}
		items = append(items, v)
	}
	return items, rows.Err()
}

// one returns a pointer to v, or nil and err.
func one[T any](v T, err error) (*T, error) {
	if err != nil {
		return nil, err
	}
	return &v, nil
}

// nilOnError returns v, or nil when err is set, so that a method never
// hands back a half-written record with its error.
func nilOnError[T any](v *T, err error) (*T, error) {
	if err != nil {
		return nil, err
	}
	return v, nil
}
