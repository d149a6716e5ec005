// Package bench measures the service against bare baselines: each
// benchmark runs the same work through feedbackd's real router and
// through a bare chi handler that runs the same SQL directly on pgx (or
// database/sql for SQLite), side by side in one run, so the ratio shows
// what the service's layers cost. Run them with `make bench`; the ratio
// command (./server/bench/ratio) turns the output into a table.
//
// TestBaselineRunsSameSQL keeps the comparison honest: it traces one
// request of each handler on PostgreSQL and fails if the bare handler's
// statements differ from the service's.
package bench
