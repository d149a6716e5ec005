package bench_test

import (
	"context"
	"testing"
	"time"
)

// seed inserts rows hygiene submissions into e's workspace in SQL, one
// per second going back from now, fast enough for a million.
func seed(tb testing.TB, e *env, rows int) {
	tb.Helper()
	ctx := context.Background()
	start := time.Now()
	q, tail := seedPostgres, "VACUUM ANALYZE hygiene_submissions"
	if e.kind == "sqlite" {
		q, tail = seedSQLite, "ANALYZE"
	}
	err := e.exec(ctx, q, e.ws.ID, e.locationID, e.posterID, rows)
	if err == nil {
		err = e.exec(ctx, seedCounters[e.kind])
	}
	if err == nil {
		err = e.exec(ctx, tail)
	}
	if err != nil {
		tb.Fatalf("seed %d rows: %v", rows, err)
	}
	tb.Logf("seeded %d rows on %s in %s", rows, e.kind, time.Since(start).Round(time.Millisecond))
}

const seedPostgres = `INSERT INTO hygiene_submissions (workspace_id, id, location_id, poster_id, rating, tags,
	comment, language, source, device_id, captured_at, created_at, body_hash)
	SELECT $1, gen_random_uuid(), $2, $3, 1 + g % 5, '[]', '', 'en', 'qr', '', now() - g * interval '1 second',
		now() - g * interval '1 second', '\x00'
	FROM generate_series(1, $4::int) g`

// seedSQLite makes UUID-shaped ids from random bytes and stores times as
// the store does: INTEGER microseconds.
const seedSQLite = `WITH RECURSIVE g(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM g WHERE n < $4),
	r(n, h) AS (SELECT n, lower(hex(randomblob(16))) FROM g)
	INSERT INTO hygiene_submissions (workspace_id, id, location_id, poster_id, rating, tags,
		comment, language, source, device_id, captured_at, created_at, body_hash)
	SELECT $1, substr(h, 1, 8) || '-' || substr(h, 9, 4) || '-7' || substr(h, 14, 3) || '-8' || substr(h, 18, 3) || '-' || substr(h, 21, 12),
		$2, $3, 1 + n % 5, '[]', '', 'en', 'qr', '',
		(CAST(strftime('%s', 'now') AS INTEGER) - n) * 1000000, (CAST(strftime('%s', 'now') AS INTEGER) - n) * 1000000, x'00'
	FROM r`

// seedCounters brings the hygiene counters up to date after the bulk
// insert, as the migration that made them backfills them.
var seedCounters = map[string]string{
	"postgres": seedCountersSQL("date_trunc('hour', created_at, 'UTC')"),
	"sqlite":   seedCountersSQL("created_at - (created_at % 3600000000 + 3600000000) % 3600000000"),
}

func seedCountersSQL(hour string) string {
	return `INSERT INTO list_counts (workspace_id, list, scope, bucket, n)
		SELECT workspace_id, 'hygiene_submissions', '00000000-0000-0000-0000-000000000000', ` + hour + `, count(*)
		FROM hygiene_submissions GROUP BY 1, 4
		UNION ALL
		SELECT workspace_id, 'hygiene_submissions.location_id', location_id, ` + hour + `, count(*)
		FROM hygiene_submissions GROUP BY 1, 3, 4
		ON CONFLICT (workspace_id, list, scope, bucket) DO UPDATE SET n = excluded.n`
}
