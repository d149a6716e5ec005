package main

import (
	"context"
	"flag"
	"fmt"
	"net/netip"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/feedbackhq/feedback/server"
	"github.com/feedbackhq/feedback/server/postgres"
	"github.com/feedbackhq/feedback/server/secret"
	"github.com/feedbackhq/feedback/server/sqlite"
)

// DefaultDB is the embedded SQLite database used when none is configured.
const DefaultDB = "./data/feedback.db"

// dbFlags are the flags every subcommand shares.
type dbFlags struct {
	db        string
	secretKey string
	now       func() time.Time // the store's clock; nil means time.Now
}

// register adds --db and --secret-key to fs with their environment defaults.
func (d *dbFlags) register(fs *flag.FlagSet, getenv func(string) string) {
	fs.StringVar(&d.db, "db", envOr(getenv, "DATABASE_URL", DefaultDB),
		"database: a postgres:// URL selects PostgreSQL, anything else is a SQLite file (env DATABASE_URL)")
	fs.StringVar(&d.secretKey, "secret-key", getenv("FEEDBACK_SECRET_KEY"),
		"comma-separated base64 32-byte keys sealing secrets at rest, current first (env FEEDBACK_SECRET_KEY); "+
			"SQLite default: a key file beside the database")
}

// isPostgres reports whether the database setting names PostgreSQL.
func (d *dbFlags) isPostgres() bool {
	return strings.HasPrefix(d.db, "postgres://") || strings.HasPrefix(d.db, "postgresql://")
}

// open opens and migrates the store.
func (d *dbFlags) open(ctx context.Context) (server.Store, error) {
	var db interface {
		server.Store
		Migrate(context.Context) error
	}
	var err error
	switch {
	case d.isPostgres() && d.now != nil:
		db, err = postgres.Open(ctx, d.db, postgres.WithNow(d.now))
	case d.isPostgres():
		db, err = postgres.Open(ctx, d.db)
	case d.now != nil:
		db, err = sqlite.Open(ctx, d.db, sqlite.WithNow(d.now))
	default:
		db, err = sqlite.Open(ctx, d.db)
	}
	if err != nil {
		return nil, err
	}
	if err := db.Migrate(ctx); err != nil {
		db.Close()
		return nil, err
	}
	return db, nil
}

// keyring returns the keyring: the configured keys, or on SQLite a key
// file beside the database, created on first use.
func (d *dbFlags) keyring() (*secret.Keyring, error) {
	if d.secretKey != "" {
		return secret.ParseKeyring(d.secretKey)
	}
	if d.isPostgres() {
		return nil, fmt.Errorf("FEEDBACK_SECRET_KEY (--secret-key) is required with PostgreSQL, " +
			"so that every instance seals and opens secrets with the same key; make one with: " +
			"head -c 32 /dev/urandom | base64")
	}
	return secret.LoadOrCreateKeyFile(filepath.Join(filepath.Dir(d.db), "secret.key"))
}

func envOr(getenv func(string) string, name, def string) string {
	if v := getenv(name); v != "" {
		return v
	}
	return def
}

func envInt(getenv func(string) string, name string, def int) int {
	if n, err := strconv.Atoi(getenv(name)); err == nil {
		return n
	}
	return def
}

// parsePrefixes parses a comma-separated list of CIDRs or addresses.
func parsePrefixes(list string) ([]netip.Prefix, error) {
	var out []netip.Prefix
	for _, s := range strings.Split(list, ",") {
		if s = strings.TrimSpace(s); s == "" {
			continue
		}
		if !strings.Contains(s, "/") {
			a, err := netip.ParseAddr(s)
			if err != nil {
				return nil, fmt.Errorf("%q is not a CIDR or an address", s)
			}
			out = append(out, netip.PrefixFrom(a, a.BitLen()))
			continue
		}
		p, err := netip.ParsePrefix(s)
		if err != nil {
			return nil, fmt.Errorf("%q is not a CIDR: %w", s, err)
		}
		out = append(out, p.Masked())
	}
	return out, nil
}
