package sqlite

import (
	"context"
	"embed"
	"fmt"
	"io/fs"

	"github.com/pressly/goose/v3"
)

//go:embed migrations/*.sql
var migrations embed.FS

// Migrate applies the migrations the database lacks, on the writer.
func (db *DB) Migrate(ctx context.Context) error {
	return db.migrate(func(p *goose.Provider) error {
		_, err := p.Up(ctx)
		return err
	})
}

// migrate runs fn with a goose provider of the embedded migrations on the
// writer.
func (db *DB) migrate(fn func(p *goose.Provider) error) error {
	fsys, err := fs.Sub(migrations, "migrations")
	if err != nil {
		return fmt.Errorf("sqlite: migrate: %w", err)
	}
	p, err := goose.NewProvider(goose.DialectSQLite3, db.writer, fsys)
	if err != nil {
		return fmt.Errorf("sqlite: migrate: %w", err)
	}
	if err := fn(p); err != nil {
		return fmt.Errorf("sqlite: migrate: %w", err)
	}
	return nil
}
