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

	"github.com/feedbackhq/feedback/server/postgres"
	"github.com/jackc/pgx/v5/pgxpool"
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
// migrations, making it if no process has. It holds an advisory lock
// meanwhile, so that concurrent test binaries make it once.
func makeTemplate(ctx context.Context, admin *pgxpool.Pool, base *url.URL) (string, error) {
	name := templatePrefix + migrationsHash()
	conn, err := admin.Acquire(ctx)
	if err != nil {
		return "", err
	}
	defer conn.Release()
	if _, err := conn.Exec(ctx, `SELECT pg_advisory_lock($1)`, lockKey); err != nil {
		return "", fmt.Errorf("lock: %w", err)
	}
	defer conn.Exec(context.Background(), `SELECT pg_advisory_unlock($1)`, lockKey)
	dropStale(ctx, admin)
	var found bool
	err = conn.QueryRow(ctx, `SELECT EXISTS (SELECT 1 FROM pg_database WHERE datname = $1)`, name).Scan(&found)
	if err != nil || found {
		return name, err
	}
	return name, build(ctx, admin, base, name)
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
