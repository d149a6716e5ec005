package pgtest

import (
	"context"
	"os"
	"os/exec"
	"testing"
)

// childEnv makes the test binary, started again, act as a test process
// that uses a test database.
const childEnv = "PGTEST_CHILD"

func TestMain(m *testing.M) {
	if os.Getenv(childEnv) == "1" {
		Main(m)
	}
	os.Exit(m.Run())
}

// TestChildUsesDatabase is the child's test: it makes a test database
// from the template.
func TestChildUsesDatabase(t *testing.T) {
	if os.Getenv(childEnv) != "1" {
		t.Skip("run by TestReleaseLeavesNoTemplate")
	}
	URL(t)
}

// TestReleaseLeavesNoTemplate runs a test process that uses the
// template, then checks, under the lock of template making, that the
// template exists only while some other process still uses it.
func TestReleaseLeavesNoTemplate(t *testing.T) {
	Check(t)
	Release() // this process does not use the template: only the child does
	cmd := exec.Command(os.Args[0], "-test.run=^TestChildUsesDatabase$", "-test.count=1")
	cmd.Env = append(os.Environ(), childEnv+"=1")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("the child test process: %v\n%s", err, out)
	}
	ctx := context.Background()
	conn, err := srv.admin.Acquire(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Release()
	if _, err := conn.Exec(ctx, `SELECT pg_advisory_lock($1)`, lockKey); err != nil {
		t.Fatal(err)
	}
	defer conn.Exec(context.Background(), `SELECT pg_advisory_unlock($1)`, lockKey)
	key := useKey(migrationsHash())
	var exists, used bool
	err = conn.QueryRow(ctx, `SELECT EXISTS (SELECT 1 FROM pg_database WHERE datname = $1),
		EXISTS (SELECT 1 FROM pg_locks WHERE locktype = 'advisory' AND classid = $2 AND objid = $3 AND objsubid = 1)`,
		srv.template, uint32(uint64(key)>>32), uint32(uint64(key))).Scan(&exists, &used)
	if err != nil {
		t.Fatal(err)
	}
	if exists && !used {
		t.Errorf("the template database %s is left behind, and no test process uses it", srv.template)
	}
}
