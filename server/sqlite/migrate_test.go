package sqlite_test

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/feedbackhq/feedback/server/sqlite"
)

// TestKeysNotNullKeepsRows migrates a database that holds rows in the
// tables migration 00011 makes again (with NOT NULL on their keys): the
// rows stay, foreign keys still hold and cascade, and a NULL key is
// refused.
func TestKeysNotNullKeepsRows(t *testing.T) {
	ctx := context.Background()
	db, err := sqlite.Open(ctx, filepath.Join(t.TempDir(), "f.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if err := db.MigrateTo(ctx, 10); err != nil {
		t.Fatal(err)
	}
	w := db.Writer()
	for _, q := range []string{
		`INSERT INTO users (id, issuer, subject, email, name, platform_owner, created_at, last_sign_in_at)
			VALUES ('u1', 'iss', 'sub', 'ann@example.com', 'Ann', 1, 0, 0)`,
		`INSERT INTO sessions (id, user_id, access_hash, access_expires_at, refresh_hash, refresh_expires_at, rotated_at,
			amr, ip, user_agent, created_at, last_seen_at, revoked_reason) VALUES ('s1', 'u1', x'01', 0, x'02', 0, 0, '', '', '', 0, 0, '')`,
		`INSERT INTO audit_log VALUES ('a1', NULL, 'u1', 'ann@example.com', 'sign_in', 'session:s1', '', '{}', 0)`,
		`INSERT INTO idp_accounts (id, email, totp_last_step, created_at) VALUES ('acc1', 'ann@example.com', 0, 0)`,
		`INSERT INTO idp_throttle (key, failures, last_failure_at, quiet_after) VALUES ('ip:127.0.0.1', 2, 0, 0)`,
	} {
		if _, err := w.ExecContext(ctx, q); err != nil {
			t.Fatalf("%v\n%s", err, q)
		}
	}
	if err := db.Migrate(ctx); err != nil {
		t.Fatal(err)
	}
	count := func(q string) (n int) {
		t.Helper()
		if err := w.QueryRowContext(ctx, q).Scan(&n); err != nil {
			t.Fatalf("%v\n%s", err, q)
		}
		return n
	}
	for table, want := range map[string]int{"users": 1, "sessions": 1, "audit_log": 1, "idp_accounts": 1, "idp_throttle": 1} {
		if n := count(`SELECT count(*) FROM ` + table); n != want {
			t.Errorf("%s: %d rows after the migration, want %d", table, n, want)
		}
	}
	if n := count(`SELECT count(*) FROM pragma_foreign_key_check`); n != 0 {
		t.Errorf("%d broken foreign keys after the migration", n)
	}
	_, err = w.ExecContext(ctx, `INSERT INTO users (id, issuer, subject, email, name, platform_owner, created_at, last_sign_in_at)
		VALUES (NULL, 'iss', 'other', 'bob@example.com', 'Bob', 0, 0, 0)`)
	if err == nil || !strings.Contains(err.Error(), "NOT NULL") {
		t.Errorf("a user with a NULL id: %v, want a NOT NULL refusal", err)
	}
	if _, err := w.ExecContext(ctx, `DELETE FROM users WHERE id = 'u1'`); err != nil {
		t.Fatal(err)
	}
	if n := count(`SELECT count(*) FROM sessions`); n != 0 {
		t.Errorf("%d sessions of a deleted user: the foreign key no longer cascades", n)
	}
}
