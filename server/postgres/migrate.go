package postgres

import (
	"context"
	"embed"
	"fmt"
	"io/fs"

	"github.com/feedbackhq/feedback/server/sqlstore"
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
	err := db.migrate(ctx, func(p *goose.Provider) error {
		_, err := p.Up(ctx)
		return err
	})
	if err != nil {
		return err
	}
	return db.checkEventSeq(ctx)
}

// checkEventSeq refuses a database whose events hold positions that new
// events would not pass: new events are numbered from the transaction
// id (see the dialect's EventSeq), which a logical restore (pg_dump into
// a new cluster) starts again from the bottom, so readers resuming after
// an old position would never see the new events.
func (db *DB) checkEventSeq(ctx context.Context) error {
	var maxSeq, next int64
	err := db.pool.QueryRow(ctx, `SELECT COALESCE(MAX(seq), 0),
		pg_snapshot_xmax(pg_current_snapshot())::text::bigint * $1 FROM events`, sqlstore.MaxTxEvents).Scan(&maxSeq, &next)
	if err != nil {
		return fmt.Errorf("postgres: check event positions: %w", err)
	}
	if maxSeq < next {
		return nil
	}
	return fmt.Errorf("postgres: stored events reach position %d, but this database's transaction ids would number "+
		"new events from %d: it was restored from a logical dump. Stop every instance and move the cluster's "+
		"transaction ids past %d with pg_resetwal (-e the upper 32 bits, -x the lower; see README.md, Backups) "+
		"before feedbackd serves", maxSeq, next, maxSeq/sqlstore.MaxTxEvents+1)
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
