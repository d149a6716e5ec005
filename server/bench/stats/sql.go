package main

// The statements of the run. backfillSQL is the hygiene part of the
// backfill of migration 00016_stats.sql, word for word
// (TestBackfillIsTheMigrations checks it): the seeded rollups are those
// the migration would make.
const (
	backfillSQL = `INSERT INTO hygiene_stats
SELECT h.workspace_id, s.scope, date_trunc('hour', h.captured_at, 'UTC'), 0,
       count(*) FILTER (WHERE rating = 1), count(*) FILTER (WHERE rating = 2), count(*) FILTER (WHERE rating = 3),
       count(*) FILTER (WHERE rating = 4), count(*) FILTER (WHERE rating = 5),
       count(*) FILTER (WHERE tags ? 'no_soap'), count(*) FILTER (WHERE tags ? 'no_paper'),
       count(*) FILTER (WHERE tags ? 'dirty_floor'), count(*) FILTER (WHERE tags ? 'dirty_toilet'),
       count(*) FILTER (WHERE tags ? 'bad_smell'), count(*) FILTER (WHERE tags ? 'out_of_order')
FROM hygiene_submissions h
CROSS JOIN LATERAL (VALUES (h.location_id), ('00000000-0000-0000-0000-000000000000'::uuid)) AS s (scope)
GROUP BY 1, 2, 3;`

	// seedSQL inserts $3 hygiene submissions of workspace $1 spread
	// evenly over the year before $4, round robin over the locations $2,
	// with every rating and a tag on one in seven.
	seedSQL = `INSERT INTO hygiene_submissions (workspace_id, id, location_id, poster_id, rating, tags,
	comment, language, source, device_id, captured_at, created_at, body_hash)
	SELECT $1, gen_random_uuid(), ($2::uuid[])[1 + g % cardinality($2::uuid[])], NULL, 1 + g % 5,
		CASE WHEN g % 7 = 0 THEN '["no_soap"]'::jsonb ELSE '[]'::jsonb END, '', 'en', 'kiosk', '',
		$4::timestamptz - g * (interval '365 days' / $3::int), $4::timestamptz - g * (interval '365 days' / $3::int), '\x00'
	FROM generate_series(1, $3::int) g`

	// groupBySQL is the plain GROUP BY over the raw rows that the rollups
	// replace: the same hourly counts of ratings and tags, of the
	// workspace ($1) or one location ($4, NULL for all), from $2 to $3.
	groupBySQL = `SELECT date_trunc('hour', captured_at, 'UTC'),
		count(*) FILTER (WHERE rating = 1), count(*) FILTER (WHERE rating = 2), count(*) FILTER (WHERE rating = 3),
		count(*) FILTER (WHERE rating = 4), count(*) FILTER (WHERE rating = 5),
		count(*) FILTER (WHERE tags ? 'no_soap'), count(*) FILTER (WHERE tags ? 'no_paper'),
		count(*) FILTER (WHERE tags ? 'dirty_floor'), count(*) FILTER (WHERE tags ? 'dirty_toilet'),
		count(*) FILTER (WHERE tags ? 'bad_smell'), count(*) FILTER (WHERE tags ? 'out_of_order')
	FROM hygiene_submissions
	WHERE workspace_id = $1 AND captured_at >= $2 AND captured_at < $3 AND ($4::uuid IS NULL OR location_id = $4::uuid)
	GROUP BY 1 ORDER BY 1`
)
