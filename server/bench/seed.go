package bench

// Seed is the SQL that fills a workspace with hygiene submissions fast
// enough for a million rows: Insert takes the workspace, location and
// poster ids and the number of rows ($1..$4) and makes one row per
// second going back from now; Counters brings the hourly list counters
// up to date afterwards, as the migration that made them backfills
// them; Analyze refreshes the planner's statistics, where the database
// would have them in service: "" on SQLite, which the service never
// analyzes. (After an ANALYZE, SQLite's STAT4 samples make it plan every
// statement with a range on a placeholder again at each execution: a
// list's page 1 ran at 0.67 of bare instead of 0.86, both slower.)
type Seed struct {
	Insert, Counters, Analyze string
}

// SeedFor returns the seed statements of a store kind, "postgres" or
// "sqlite".
func SeedFor(kind string) Seed {
	if kind == "sqlite" {
		return Seed{seedSQLite, seedCountersSQL("created_at - (created_at % 3600000000 + 3600000000) % 3600000000"), ""}
	}
	return Seed{seedPostgres, seedCountersSQL("date_trunc('hour', created_at, 'UTC')"), "VACUUM ANALYZE hygiene_submissions"}
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

func seedCountersSQL(hour string) string {
	return `INSERT INTO list_counts (workspace_id, list, scope, bucket, n)
		SELECT workspace_id, 'hygiene_submissions', '00000000-0000-0000-0000-000000000000', ` + hour + `, count(*)
		FROM hygiene_submissions GROUP BY 1, 4
		UNION ALL
		SELECT workspace_id, 'hygiene_submissions.location_id', location_id, ` + hour + `, count(*)
		FROM hygiene_submissions GROUP BY 1, 3, 4
		ON CONFLICT (workspace_id, list, scope, bucket, shard) DO UPDATE SET n = excluded.n`
}
