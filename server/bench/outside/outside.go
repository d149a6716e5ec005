// Package outside sets the stage for the benchmarks that measure
// feedbackd from outside (server/bench/compare, server/bench/live): the
// tools they need, binaries built from this module, a PostgreSQL
// database made for one run and dropped after it, feedbackd's
// environment, and server processes pinned to a CPU list with taskset,
// PostgreSQL's own processes included, so that the load generator on
// another CPU does not steal their time.
package outside

import (
	"errors"
	"fmt"
	"os"
	"os/exec"

	"github.com/feedbackhq/feedback/server/secret"
)

// DefaultAdminURL is the PostgreSQL server used when
// FEEDBACK_BENCH_DATABASE_URL is not set.
const DefaultAdminURL = "postgres://postgres@127.0.0.1:5432/postgres?sslmode=disable"

// AdminURL returns the URL of the PostgreSQL server's admin database:
// FEEDBACK_BENCH_DATABASE_URL, or DefaultAdminURL.
func AdminURL() string {
	if u := os.Getenv("FEEDBACK_BENCH_DATABASE_URL"); u != "" {
		return u
	}
	return DefaultAdminURL
}

// hints say where a missing tool comes from.
var hints = map[string]string{
	"taskset": "util-linux (apt-get install util-linux)",
	"wrk":     "wrk (apt-get install wrk)",
	"go":      "Go (https://go.dev/dl/)",
}

// Require returns an error naming every tool that is not on PATH and
// where to get it, so that a run fails before it builds anything.
func Require(tools ...string) error {
	var errs []error
	for _, t := range tools {
		if _, err := exec.LookPath(t); err != nil {
			hint := hints[t]
			if hint == "" {
				hint = t
			}
			errs = append(errs, fmt.Errorf("%s is not on PATH; install %s", t, hint))
		}
	}
	return errors.Join(errs...)
}

// build compiles each package, named by import path (so that it works
// from any directory of the module), into dir.
func build(dir string, pkgs ...string) error {
	for _, p := range pkgs {
		cmd := exec.Command("go", "build", "-o", dir, p)
		cmd.Stderr = os.Stderr
		if err := cmd.Run(); err != nil {
			return fmt.Errorf("build %s: %w", p, err)
		}
	}
	return nil
}

// unlimited is what the per-minute limits are set to: the benchmarks
// measure the service, not its rate limiter's refusals.
const unlimited = "100000000"

// SetServerEnv sets, in this process's environment (which the servers
// and the feedbackd commands it starts inherit), a fresh
// FEEDBACK_SECRET_KEY, DATABASE_URL=dsn and the rate, visitor and
// poster limits far above any load. It returns the key.
func SetServerEnv(dsn string) string {
	key := secret.NewKey()
	os.Setenv("FEEDBACK_SECRET_KEY", key)
	os.Setenv("DATABASE_URL", dsn)
	for _, v := range []string{"FEEDBACK_RATE_LIMIT", "FEEDBACK_VISITOR_LIMIT", "FEEDBACK_POSTER_LIMIT"} {
		os.Setenv(v, unlimited)
	}
	return key
}
