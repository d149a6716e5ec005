package schemadiff_test

import (
	"strings"
	"testing"

	"github.com/feedbackhq/feedback/server/internal/pgtest"
)

func TestMain(m *testing.M) { pgtest.Main(m) }

// deliberate lists the differences between the dialects that are meant,
// each with its reason. A line of the diff that is not here fails the
// test, and so does a reason whose difference is gone.
var deliberate = map[string]string{
	"table rate_limits: only in PostgreSQL": "the rate-limit windows that every instance shares; " +
		"a SQLite store serves one process and counts in memory (server/inmem)",
}

// TestDialectsDescribeOneSchema compares the schemas after every
// migration of each dialect.
func TestDialectsDescribeOneSchema(t *testing.T) {
	pgtest.Check(t)
	drift := diff(postgresSchema(t), sqliteSchema(t))
	seen := map[string]bool{}
	for _, d := range drift {
		seen[d] = true
		if _, ok := deliberate[d]; !ok {
			t.Errorf("schema drift: %s", d)
		}
	}
	for d := range deliberate {
		if !seen[d] {
			t.Errorf("a deliberate difference is gone; remove it from the list: %s", d)
		}
	}
	if t.Failed() {
		t.Logf("every difference:\n  %s", strings.Join(drift, "\n  "))
	}
}
