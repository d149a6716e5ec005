package sqlite_test

import (
	"context"
	"encoding/json"
	"testing"
	"time"

	"github.com/feedbackhq/feedback/server/storetest"
)

// BenchmarkHygieneList1M lists a workspace of a million hygiene
// submissions, seeded with a recursive common table expression and
// counted by the migration's backfill.
func BenchmarkHygieneList1M(b *testing.B) {
	db := MustOpenDB(b)
	seed := func(ctx context.Context, ws string, locations []string, start time.Time, n int) error {
		locs, err := json.Marshal(locations)
		if err != nil {
			return err
		}
		_, err = db.Writer().ExecContext(ctx, `WITH RECURSIVE seq(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM seq WHERE i < $3 - 1)
			INSERT INTO hygiene_submissions (workspace_id, id, location_id, rating, tags,
				comment, language, source, device_id, captured_at, created_at, body_hash)
			SELECT $1, printf('00000000-0000-7000-8000-%012x', i), $2 ->> (i % json_array_length($2)), 1 + i % 5, '[]',
				'', 'en', 'qr', '', $4 + i * $5, $4 + i * $5, x'00'
			FROM seq`, ws, string(locs), n, start, storetest.SeedStep.Microseconds())
		if err != nil {
			return err
		}
		return db.Remigrate(ctx)
	}
	count := func(ctx context.Context, query string, args ...any) (n int, err error) {
		err = db.Writer().QueryRowContext(ctx, query, args...).Scan(&n)
		return n, err
	}
	storetest.BenchHygieneList1M(b, db, seed, count)
}
