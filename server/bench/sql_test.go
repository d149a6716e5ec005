package bench_test

import (
	"context"
	"fmt"
	"strings"
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
	sqlHygienePage = `SELECT ` + hygieneColumns + ` FROM hygiene_submissions WHERE ` + sqlHygieneCond +
		` ORDER BY created_at DESC, id DESC LIMIT $4 OFFSET $5`
)

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
// the ids' prefix) and the counters ($20 the hour, then each series'
// list and scope).
func sqlIngestOne(db bareDB) string {
	counter := func(list, scope string) string {
		return "SELECT CAST($1 AS uuid), CAST(" + list + " AS text), CAST(" + scope + " AS uuid), CAST($20 AS timestamptz), 1, " +
			db.countShard("$20", list, scope) + " FROM ins"
	}
	return `WITH ins AS (` + sqlInsertHygiene + ` RETURNING 1),
		ev AS (INSERT INTO events (workspace_id, seq, id, type, occurred_at, data) SELECT $1, ` + db.eventSeq() +
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
	sqlCountEdge   = `SELECT COUNT(*) FROM hygiene_submissions WHERE workspace_id = $1 AND created_at >= %s AND created_at < %s`
	sqlCountHours  = `SELECT bucket, n, CAST(SUM(n) OVER (ORDER BY bucket DESC) AS BIGINT) AS upto
		FROM (SELECT bucket, CAST(SUM(n) AS BIGINT) AS n FROM list_counts
		WHERE workspace_id = $1 AND list = $6 AND scope = $7 AND bucket >= $4 AND bucket < $5 GROUP BY bucket) AS b`
)

// sqlHygieneTotal is the unfiltered total and where page 1 starts: the
// rows after the last whole hour, the counters of the whole hours (and
// the newest hour that holds a row), the rows before the first.
var sqlHygieneTotal = "WITH hours AS (" + sqlCountHours + "), top AS (" +
	strings.Replace(fmt.Sprintf(sqlCountEdge, "$5", "$3"), "COUNT(*)", "COUNT(*) AS c", 1) +
	`), seek AS (SELECT bucket, upto - hours.n AS newer FROM hours, top
		WHERE top.c + hours.upto > CAST($8 AS BIGINT) ORDER BY bucket DESC LIMIT 1)
	SELECT (SELECT c FROM top), (SELECT CAST(COALESCE(MAX(upto), 0) AS BIGINT) FROM hours), (` +
	fmt.Sprintf(sqlCountEdge, "$2", "$4") + `), (SELECT bucket FROM seek), COALESCE((SELECT newer FROM seek), 0)`

// bareTotal counts the list as the store does and returns the upper
// bound of page 1's created_at: the end of the newest hour that holds a
// row (the first page of a list without rows in the last, open hour).
func bareTotal(ctx context.Context, db bareDB, ws string, _ feedback.ListParams) (int, time.Time, error) {
	var top, hours, bottom, newer int
	var hour any // time.Time, or INTEGER microseconds from SQLite
	err := db.queryRow(ctx, sqlHygieneTotal, ws, minTime, maxTime, minTime, maxTime, hygieneSeries, wholeWorkspace, 0).
		Scan(&top, &hours, &bottom, &hour, &newer)
	upper := maxTime
	switch h := hour.(type) {
	case time.Time:
		upper = h.Add(time.Hour)
	case int64:
		upper = time.UnixMicro(h).Add(time.Hour)
	}
	if top > 0 {
		upper = maxTime
	}
	return top + hours + bottom, upper, err
}

// sqlCounters is the statement that adds a submission to the list
// counters, with shard the dialect's expression of a series' shard.
func sqlCounters(shard func(bucket, list, scope string) string) string {
	return `INSERT INTO list_counts (workspace_id, list, scope, bucket, n, shard) VALUES ($1, $3, $4, $2, 1, ` +
		shard("$2", "$3", "$4") + `), ($1, $5, $6, $2, 1, ` + shard("$2", "$5", "$6") + `)
		ON CONFLICT (workspace_id, list, scope, bucket, shard) DO UPDATE SET n = list_counts.n + 1`
}

// bareCounters updates the list counters as the store does.
func bareCounters(exec func(string, ...any) error, db bareDB, ws string, h feedback.HygieneSubmission, now time.Time) error {
	return exec(sqlCounters(db.countShard), ws, now.Truncate(time.Hour), hygieneSeries, wholeWorkspace, locationSeries, h.LocationID)
}
