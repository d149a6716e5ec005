package postgres

import (
	"context"
	"embed"
	"fmt"
	"io/fs"

	"github.com/jackc/pgx/v5/stdlib"
	"github.com/pressly/goose/v3"
	"github.com/pressly/goose/v3/lock"
)

//go:embed migrations/*.sql
var migrations embed.FS

// Migrations returns the embedded migration files (00001_init.sql, ...).
func Migrations() fs.FS {
	sub, _ := fs.Sub(migrations, "migrations") // cannot fail: the folder is embedded
	return sub
}

// Migrate applies the migrations the database lacks. Instances that start
// together take turns, under a PostgreSQL advisory lock.
func (db *DB) Migrate(ctx context.Context) error {
	return db.migrate(ctx, func(p *goose.Provider) error {
		_, err := p.Up(ctx)
		return err
	})
}

// migrate runs fn with a goose provider of the embedded migrations on
// the pool, under the advisory lock.
func (db *DB) migrate(ctx context.Context, fn func(p *goose.Provider) error) error {
	sqlDB := stdlib.OpenDBFromPool(db.pool)
	defer sqlDB.Close()
	locker, err := lock.NewPostgresSessionLocker(lock.WithLockTimeout(1, 600))
	if err != nil {
		return fmt.Errorf("postgres: migrate: %w", err)
	}
	p, err := goose.NewProvider(goose.DialectPostgres, sqlDB, Migrations(), goose.WithSessionLocker(locker))
	if err != nil {
		return fmt.Errorf("postgres: migrate: %w", err)
	}
	if err := fn(p); err != nil {
		return fmt.Errorf("postgres: migrate: %w", err)
	}
	return nil
}
