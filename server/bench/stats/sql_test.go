package main

import (
	"os"
	"strings"
	"testing"
)

// TestBackfillIsTheMigrations fails when the seed's rollup statement is
// no longer the one migration 00016 backfills hygiene_stats with.
func TestBackfillIsTheMigrations(t *testing.T) {
	b, err := os.ReadFile("../../postgres/migrations/00016_stats.sql")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(b), backfillSQL) {
		t.Errorf("00016_stats.sql does not hold the backfill statement:\n%s", backfillSQL)
	}
}
