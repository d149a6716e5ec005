package main

import (
	"slices"
	"testing"
	"time"

	"github.com/feedbackhq/feedback/server/postgres"
	"github.com/feedbackhq/feedback/shared/feedback"
)

// TestScaleOutStats runs three feedbackd processes on one PostgreSQL
// database, each with its statistics rollup: sixty ratings posted at
// once through all three are in the statistics at once, and soon after
// in the counters exactly once (the rollups of three instances raced
// for them), with nothing left to roll up.
func TestScaleOutStats(t *testing.T) {
	if testing.Short() {
		t.Skip("scale-out test builds and starts processes; skipped with -short")
	}
	addrs, tok, url := startThree(t, "Stats")
	poster := hygienePoster(t, addrs[0], tok, "Lobby")
	const n = 60
	postBurst(t, addrs, poster.Code, n, 5)
	now := time.Now().UTC()
	path := "/api/v1/stats/hygiene?bucket=hour&from=" + now.Add(-time.Hour).Format(time.RFC3339) +
		"&to=" + now.Add(time.Hour).Format(time.RFC3339)
	want := [5]int{n / 5, n / 5, n / 5, n / 5, n / 5}
	var st feedback.HygieneStats
	apiCall(t, addrs[1], tok, "GET", path, nil, &st)
	if st.Total.Distribution != want {
		t.Errorf("right after the posts the statistics count %v, want %v", st.Total.Distribution, want)
	}

	db, err := postgres.Open(t.Context(), url)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	deadline := time.Now().Add(10 * time.Second)
	for {
		behind, err := db.StatsWorkspaces(t.Context())
		if err != nil {
			t.Fatal(err)
		}
		if len(behind) == 0 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("after 10 s, workspaces %v still have events to roll up", behind)
		}
		time.Sleep(50 * time.Millisecond)
	}
	var counted int
	err = db.Pool().QueryRow(t.Context(), `SELECT COALESCE(SUM(n1 + n2 + n3 + n4 + n5), 0) FROM hygiene_stats
		WHERE scope = '00000000-0000-0000-0000-000000000000'`).Scan(&counted)
	if err != nil {
		t.Fatal(err)
	}
	if counted != n {
		t.Errorf("the counters hold %d ratings, want %d: each once", counted, n)
	}
	for _, addr := range slices.Backward(addrs) {
		apiCall(t, addr, tok, "GET", path, nil, &st)
		if st.Total.Distribution != want {
			t.Errorf("after the rollups %s counts %v, want %v", addr, st.Total.Distribution, want)
		}
	}
}
