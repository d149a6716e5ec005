package postgres_test

import (
	"context"
	"testing"
	"time"

	"github.com/feedbackhq/feedback/server/storetest"
)

// BenchmarkHygieneList1M lists a workspace of a million hygiene
// submissions, seeded with generate_series and counted by the
// migration's backfill.
func BenchmarkHygieneList1M(b *testing.B) {
	db := MustOpenDB(b)
	seed := func(ctx context.Context, ws string, locations []string, start time.Time, n int) error {
		_, err := db.Pool().Exec(ctx, `INSERT INTO hygiene_submissions (workspace_id, id, location_id, rating, tags,
				comment, language, source, device_id, captured_at, created_at, body_hash)
			SELECT $1, gen_random_uuid(), ($2::uuid[])[1 + i % cardinality($2::uuid[])], 1 + i % 5, '[]',
				'', 'en', 'qr', '', t, t, '\x00'
			FROM generate_series(0, $3 - 1) AS i, LATERAL (SELECT $4::timestamptz + i * $5::interval AS t) AS at`,
			ws, locations, n, start, storetest.SeedStep)
		if err != nil {
			return err
		}
		if err := db.Remigrate(ctx); err != nil {
			return err
		}
		_, err = db.Pool().Exec(ctx, `VACUUM ANALYZE`)
		return err
	}
	count := func(ctx context.Context, query string, args ...any) (n int, err error) {
		err = db.Pool().QueryRow(ctx, query, args...).Scan(&n)
		return n, err
	}
	storetest.BenchHygieneList1M(b, db, seed, count)
}
