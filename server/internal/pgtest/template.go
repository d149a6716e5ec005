package pgtest

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io/fs"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/feedbackhq/feedback/server/postgres"
)

// Names of the databases pgtest makes. Test databases carry their
// creation time, so that those a killed test run left behind can be
// dropped by a later one.
const (
	templatePrefix = "feedback_template_"
	testDBPrefix   = "feedback_test_"
	staleAfter     = 6 * time.Hour
	lockKey        = 7_466_726_100 // the advisory lock of template making
)

// makeTemplate returns the name of the template database for the current
// migrations, making it if no process has, and the connection that holds
// this process's use of it (a shared advisory lock, see [Release]). It
// holds an advisory lock meanwhile, so that concurrent test binaries make
// it once and none drops it while another starts to use it.
func makeTemplate(ctx context.Context, admin *pgxpool.Pool, base *url.URL) (string, *pgxpool.Conn, error) {
	hash := migrationsHash()
	name := templatePrefix + hash
	conn, err := admin.Acquire(ctx)
	if err != nil {
		return "", nil, err
	}
	if _, err := conn.Exec(ctx, `SELECT pg_advisory_lock($1)`, lockKey); err != nil {
		conn.Release()
		return "", nil, fmt.Errorf("lock: %w", err)
	}
	defer conn.Exec(context.Background(), `SELECT pg_advisory_unlock($1)`, lockKey)
	dropStale(ctx, admin)
	dropUnused(ctx, conn, admin, name)
	if _, err = conn.Exec(ctx, `SELECT pg_advisory_lock_shared($1)`, useKey(hash)); err == nil {
		var found bool
		err = conn.QueryRow(ctx, `SELECT EXISTS (SELECT 1 FROM pg_database WHERE datname = $1)`, name).Scan(&found)
		if err == nil && !found {
			err = build(ctx, admin, base, name)
		}
	}
	if err != nil {
		conn.Release()
		return "", nil, err
	}
	return name, conn, nil
}

// useKey is the advisory lock that every process using the template of
// the migrations hash holds shared.
func useKey(hash string) int64 {
	n, _ := strconv.ParseUint(hash, 16, 64)
	return int64(n >> 1)
}

// release ends this process's use of the template and drops it when no
// other process uses it: under the lock of template making, it gives up
// its shared lock and drops the template only if it can then take the
// lock exclusively.
func release(ctx context.Context, admin *pgxpool.Pool, conn *pgxpool.Conn, name string) error {
	defer conn.Release()
	key := useKey(strings.TrimPrefix(name, templatePrefix))
	if _, err := conn.Exec(ctx, `SELECT pg_advisory_lock($1)`, lockKey); err != nil {
		return err
	}
	defer conn.Exec(context.Background(), `SELECT pg_advisory_unlock($1)`, lockKey)
	var last bool
	_, err := conn.Exec(ctx, `SELECT pg_advisory_unlock_shared($1)`, key)
	if err == nil {
		err = conn.QueryRow(ctx, `SELECT pg_try_advisory_lock($1)`, key).Scan(&last)
	}
	if err != nil || !last {
		return err
	}
	defer conn.Exec(context.Background(), `SELECT pg_advisory_unlock($1)`, key)
	_, err = admin.Exec(ctx, `DROP DATABASE IF EXISTS `+name+` WITH (FORCE)`)
	return err
}

// build migrates a new database and renames it to name once it is
// complete, so that no process ever copies a half-migrated template.
func build(ctx context.Context, admin *pgxpool.Pool, base *url.URL, name string) error {
	tmp := name + "_building"
	if _, err := admin.Exec(ctx, `DROP DATABASE IF EXISTS `+tmp+` WITH (FORCE)`); err != nil {
		return err
	}
	if _, err := admin.Exec(ctx, `CREATE DATABASE `+tmp); err != nil {
		return fmt.Errorf("create template: %w", err)
	}
	u := *base
	u.Path = "/" + tmp
	db, err := postgres.Open(ctx, u.String())
	if err != nil {
		return fmt.Errorf("open template: %w", err)
	}
	err = db.Migrate(ctx)
	db.Close()
	if err != nil {
		return fmt.Errorf("migrate template: %w", err)
	}
	_, err = admin.Exec(ctx, `ALTER DATABASE `+tmp+` RENAME TO `+name)
	return err
}

// dropStale drops test databases older than staleAfter: what killed test
// runs left behind. Failures are ignored; the next run tries again.
func dropStale(ctx context.Context, admin *pgxpool.Pool) {
	rows, err := admin.Query(ctx, `SELECT datname FROM pg_database WHERE datname LIKE 'feedback\_test\_%'`)
	if err != nil {
		return
	}
	var stale []string
	for rows.Next() {
		var name string
		if rows.Scan(&name) == nil && createdBefore(name, time.Now().Add(-staleAfter)) {
			stale = append(stale, name)
		}
	}
	rows.Close()
	for _, name := range stale {
		_, _ = admin.Exec(ctx, `DROP DATABASE IF EXISTS `+name+` WITH (FORCE)`)
	}
}

// dropUnused drops the templates of other migrations (an older checkout's)
// that no process uses, with conn holding the lock of template making.
// Failures are ignored.
func dropUnused(ctx context.Context, conn *pgxpool.Conn, admin *pgxpool.Pool, keep string) {
	rows, err := admin.Query(ctx, `SELECT datname FROM pg_database WHERE datname LIKE 'feedback\_template\_%' AND datname <> $1`, keep)
	if err != nil {
		return
	}
	names, _ := pgx.CollectRows(rows, pgx.RowTo[string])
	for _, name := range names {
		key := useKey(strings.TrimSuffix(strings.TrimPrefix(name, templatePrefix), "_building"))
		var free bool
		if conn.QueryRow(ctx, `SELECT pg_try_advisory_lock($1)`, key).Scan(&free) != nil || !free {
			continue
		}
		_, _ = admin.Exec(ctx, `DROP DATABASE IF EXISTS `+name+` WITH (FORCE)`)
		_, _ = conn.Exec(ctx, `SELECT pg_advisory_unlock($1)`, key)
	}
}

// createdBefore reports whether the test database name was created
// before t.
func createdBefore(name string, t time.Time) bool {
	stamp, _, _ := strings.Cut(strings.TrimPrefix(name, testDBPrefix), "_")
	sec, err := strconv.ParseInt(stamp, 10, 64)
	return err == nil && time.Unix(sec, 0).Before(t)
}

// migrationsHash names the schema: a digest of every migration file.
func migrationsHash() string {
	h := sha256.New()
	fsys := postgres.Migrations()
	_ = fs.WalkDir(fsys, ".", func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := fs.ReadFile(fsys, path)
		fmt.Fprintf(h, "%s\x00%d\x00", path, len(b))
		h.Write(b)
		return err
	})
	return hex.EncodeToString(h.Sum(nil))[:16]
}
