package bench_test

import (
	"context"
	"fmt"
	"slices"
	"sync"
	"time"

	"github.com/feedbackhq/feedback/shared/feedback"
)

// The service's statements, as the baseline runs them. They are copies:
// TestBaselineRunsSameSQL fails when the store's change.
const (
	hygieneColumns   = "id, location_id, poster_id, rating, tags, comment, language, source, device_id, captured_at, created_at"
	sqlPosterByID    = `SELECT workspace_id, id, location_id, form, review_id, survey_id, label, created_at, revoked_at FROM posters WHERE id = $1`
	sqlLocation      = `SELECT id, name, description, created_at, updated_at FROM locations WHERE workspace_id = $1 AND id = $2 AND deleted_at IS NULL`
	sqlInsertHygiene = `INSERT INTO hygiene_submissions (workspace_id, ` + hygieneColumns + `, body_hash)
			SELECT $1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13 WHERE NOT EXISTS (SELECT 1 FROM posters
				WHERE workspace_id = $1 AND id = $4 AND (revoked_at <= $11 OR revoked_at <= $14))
			ON CONFLICT (workspace_id, id) DO NOTHING`
	sqlHygieneCond = `workspace_id = $1 AND created_at >= $2 AND created_at < $3`
)

// sqlHygienePage is the statement of a page, with limit the dialect's
// form of a LIMIT or OFFSET placeholder.
func sqlHygienePage(limit string) string {
	return `SELECT ` + hygieneColumns + ` FROM hygiene_submissions WHERE ` + sqlHygieneCond +
		` ORDER BY created_at DESC, id DESC LIMIT ` + fmt.Sprintf(limit, "$4") + ` OFFSET ` + fmt.Sprintf(limit, "$5")
}

// sqlInsertEvent is the statement that writes an event, with seq the
// dialect's expression of its number.
func sqlInsertEvent(seq string) string {
	return `INSERT INTO events (workspace_id, seq, id, type, occurred_at, data) VALUES ($1, ` + seq + `,
		$2, $3, $4, $5) RETURNING seq`
}

// sqlFanOut is the statement that writes an event's webhook deliveries,
// with rowID the dialect's new-row-id expression.
func sqlFanOut(rowID string) string {
	return sqlFanOutOf(rowID, "", "$2", "$3", "$4", "$5", "$6")
}

// sqlFanOutOf is sqlFanOut with the event's fields in the expressions
// given, from preceding webhook_events in the FROM clause.
func sqlFanOutOf(rowID, from, seq, id, typ, at, idPrefix string) string {
	return `INSERT INTO deliveries (workspace_id, id, webhook_id, event_seq, event_id, event_type,
			status, attempts, schedule_base, next_attempt_at, last_status_code, last_error, created_at, updated_at)
		SELECT we.workspace_id, ` + fmt.Sprintf(rowID, idPrefix) + `, we.webhook_id, ` + seq + `, ` + id + `, ` + typ + `,
			'pending', 0, 0, ` + at + `, 0, '', ` + at + `, ` + at + `
		FROM ` + from + `webhook_events we JOIN webhooks w ON w.workspace_id = we.workspace_id AND w.id = we.webhook_id
		WHERE we.workspace_id = $1 AND we.event IN (` + typ + `, '*') AND w.disabled_at IS NULL`
}

// sqlIngestOne is the one statement of a hygiene submission on
// PostgreSQL: its INSERT (arguments $1 to $14), then, when it inserted,
// the event ($15 id, $16 type, $17 time, $18 data), its deliveries ($19
// the ids' prefix), the counters ($20 the hour, then each series'
// list and scope) and the event's ordinal in its transaction ($25). The
// statistics count the event later (the rollup).
func sqlIngestOne(db bareDB) string {
	counter := func(list, scope string) string {
		return "SELECT CAST($1 AS uuid), CAST(" + list + " AS text), CAST(" + scope + " AS uuid), CAST($20 AS timestamptz), 1, " +
			db.countShard() + " FROM ins"
	}
	return `WITH ins AS (` + sqlInsertHygiene + ` RETURNING 1),
		ev AS (INSERT INTO events (workspace_id, seq, id, type, occurred_at, data) SELECT $1, ` + db.eventSeq("$25") +
		`, $15, $16, $17, $18 FROM ins RETURNING seq),
		dl AS (` + sqlFanOutOf(db.rowID(), "ev, ", "ev.seq", "$15", "$16", "$17", "$19") + ` RETURNING 1),
		ct AS (INSERT INTO list_counts (workspace_id, list, scope, bucket, n, shard) ` + counter("$21", "$22") +
		" UNION ALL " + counter("$23", "$24") + `
		ON CONFLICT (workspace_id, list, scope, bucket, shard) DO UPDATE SET n = list_counts.n + 1)
		SELECT COALESCE((SELECT seq FROM ev), 0), (SELECT COUNT(*) FROM dl)`
}

// The hourly counters of the whole workspace's hygiene list.
const (
	hygieneSeries  = "hygiene_submissions"
	locationSeries = "hygiene_submissions.location_id"
	wholeWorkspace = "00000000-0000-0000-0000-000000000000"
	// sqlClosedHours reads a series' hours before the closed hours' end.
	sqlClosedHours = `SELECT bucket, CAST(SUM(n) AS BIGINT) FROM list_counts
		WHERE workspace_id = $1 AND list = $2 AND scope = $3 AND bucket < $4
		GROUP BY bucket ORDER BY bucket DESC`
	// sqlOpenHours reads the hours since.
	sqlOpenHours = `SELECT 0, bucket, CAST(SUM(n) AS BIGINT) FROM list_counts
		WHERE workspace_id = $1 AND list = $2 AND scope = $3 AND bucket >= $4 AND bucket < $5 GROUP BY bucket`
)

// closed is the baseline's copy of the store's closed hours of the
// workspace's series: newest first, read again when their end moves or
// after ten minutes, as the store does.
var closed struct {
	sync.Mutex
	end, fetched time.Time
	hours        []hour
}

// hour is one hour's sum.
type hour struct {
	at time.Time
	n  int
}

// bareTotal counts the unfiltered list as the store does (the closed
// hours from memory, the rest in one statement) and returns the upper
// bound of page 1's created_at: the end of the newest hour that holds a
// row.
func bareTotal(ctx context.Context, db bareDB, ws string, _ feedback.ListParams) (int, time.Time, error) {
	now := time.Now().UTC()
	end := now.Add(-15 * time.Minute).Truncate(time.Hour)
	closed.Lock()
	defer closed.Unlock()
	if !closed.end.Equal(end) || now.Sub(closed.fetched) >= 10*time.Minute {
		hours, err := readHours(ctx, db, sqlClosedHours, false, ws, hygieneSeries, wholeWorkspace, end)
		if err != nil {
			return 0, time.Time{}, err
		}
		closed.end, closed.fetched, closed.hours = end, now, hours
	}
	open, err := readHours(ctx, db, sqlOpenHours, true, ws, hygieneSeries, wholeWorkspace, end, maxTime)
	if err != nil {
		return 0, time.Time{}, err
	}
	slices.SortFunc(open, func(a, b hour) int { return b.at.Compare(a.at) })
	total, upper := 0, maxTime
	for _, h := range append(open, closed.hours...) {
		if total == 0 && h.n > 0 {
			upper = h.at.Add(time.Hour)
		}
		total += h.n
	}
	return total, upper, nil
}

// readHours reads the rows of bucket and sum (after a kind when kind).
func readHours(ctx context.Context, db bareDB, q string, kind bool, args ...any) ([]hour, error) {
	rows, err := db.query(ctx, q, args...)
	if err != nil {
		return nil, err
	}
	var out []hour
	for rows.Next() {
		var k int
		var at any // time.Time, or INTEGER microseconds from SQLite
		var h hour
		dest := []any{&at, &h.n}
		if kind {
			dest = append([]any{&k}, dest...)
		}
		if err := rows.Scan(dest...); err != nil {
			return nil, err
		}
		switch v := at.(type) {
		case time.Time:
			h.at = v.UTC()
		case int64:
			h.at = time.UnixMicro(v).UTC()
		}
		out = append(out, h)
	}
	return out, rows.Err()
}

// sqlCounters is the statement that adds a submission to the list
// counters, with shard the dialect's expression of a series' shard.
func sqlCounters(shard string) string {
	return `INSERT INTO list_counts (workspace_id, list, scope, bucket, n, shard) VALUES ($1, $3, $4, $2, 1, ` +
		shard + `), ($1, $5, $6, $2, 1, ` + shard + `)
		ON CONFLICT (workspace_id, list, scope, bucket, shard) DO UPDATE SET n = list_counts.n + 1`
}

// bareCounters updates the list counters as the store does.
func bareCounters(exec func(string, ...any) error, db bareDB, ws string, h feedback.HygieneSubmission, now time.Time) error {
	return exec(sqlCounters(db.countShard()), ws, now.Truncate(time.Hour), hygieneSeries, wholeWorkspace, locationSeries, h.LocationID)
}
