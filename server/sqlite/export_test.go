package sqlite

import (
	"context"
	"database/sql"

	"github.com/pressly/goose/v3"
)

// Remigrate undoes every migration after the first and applies them
// again, for tests of what the later ones do to the rows that the first
// schema held: their backfills.
func (db *DB) Remigrate(ctx context.Context) error {
	return db.migrate(func(p *goose.Provider) error {
		if _, err := p.DownTo(ctx, 1); err != nil {
			return err
		}
		_, err := p.Up(ctx)
		return err
	})
}

// MigrateTo applies the migrations up to version only, for tests of what
// a later one does to the rows an older schema held.
func (db *DB) MigrateTo(ctx context.Context, version int64) error {
	return db.migrate(func(p *goose.Provider) error {
		_, err := p.UpTo(ctx, version)
		return err
	})
}

// Writer returns the writer connection, for statements the store does
// not make.
func (db *DB) Writer() *sql.DB { return db.writer }
