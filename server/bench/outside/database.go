package outside

import (
	"context"
	"fmt"
	"net/url"
	"os"
	"time"

	"github.com/jackc/pgx/v5"
)

// Database is a PostgreSQL database made for one run.
type Database struct {
	Admin string // the server's admin database, on which it was created
	Name  string
	URL   string // the database's own URL
}

// CreateDatabase creates the database prefix_PID on the server at
// admin. An unreachable server is reported with what to set.
func CreateDatabase(ctx context.Context, admin, prefix string) (*Database, error) {
	d := &Database{Admin: admin, Name: fmt.Sprintf("%s_%d", prefix, os.Getpid())}
	if err := d.exec(ctx, "CREATE DATABASE "+d.Name); err != nil {
		return nil, err
	}
	u, err := url.Parse(admin)
	if err != nil {
		return nil, err
	}
	u.Path = "/" + d.Name
	d.URL = u.String()
	return d, nil
}

// Drop drops the database, closing the connections still open on it.
// It runs at teardown, perhaps after an interrupt, so it takes no
// context and gives up after ten seconds.
func (d *Database) Drop() error {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	return d.exec(ctx, "DROP DATABASE IF EXISTS "+d.Name+" WITH (FORCE)")
}

// exec runs one statement on the admin database.
func (d *Database) exec(ctx context.Context, q string) error {
	conn, err := connect(ctx, d.Admin)
	if err != nil {
		return err
	}
	defer conn.Close(context.WithoutCancel(ctx))
	_, err = conn.Exec(ctx, q)
	return err
}

// connect opens a connection, saying what to do when PostgreSQL is not
// there.
func connect(ctx context.Context, dsn string) (*pgx.Conn, error) {
	conn, err := pgx.Connect(ctx, dsn)
	if err != nil {
		return nil, fmt.Errorf("PostgreSQL at %s: %w (start a server with trust authentication, or point FEEDBACK_BENCH_DATABASE_URL at one)", redact(dsn), err)
	}
	return conn, nil
}

// redact hides a password in a URL.
func redact(dsn string) string {
	u, err := url.Parse(dsn)
	if err != nil {
		return "the configured URL"
	}
	return u.Redacted()
}

// Quiesce waits, at most limit, until the PostgreSQL database at dsn
// runs no statement but this one: a load run that ends leaves the
// statements its server had in flight (a bare deep page runs for over a
// second), and the next run must not measure them.
func Quiesce(ctx context.Context, dsn string, limit time.Duration) error {
	conn, err := connect(ctx, dsn)
	if err != nil {
		return err
	}
	defer conn.Close(ctx)
	for deadline := time.Now().Add(limit); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		var active int
		err := conn.QueryRow(ctx, `SELECT count(*) FROM pg_stat_activity
			WHERE datname = current_database() AND state = 'active' AND pid <> pg_backend_pid()`).Scan(&active)
		if err != nil || active == 0 {
			return err
		}
	}
	return nil
}
