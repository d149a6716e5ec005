// Package bench measures the service against bare baselines.
//
// From outside (./server/bench/compare, first in make bench): a real
// feedbackd process against ./server/bench/bare, a chi server that runs
// only the essential SQL (the submission's INSERT, the page's SELECT),
// pinned and interleaved: this is the physical limit.
// ./server/bench/live measures the live stream the same way: fan-out
// latency from POST to socket on one and three instances, and the
// memory of idle sockets. Both set their stage with ./server/bench/outside.
//
// In process (the Go benchmarks of this package): each
// benchmark runs the same work through feedbackd's real router and
// through a bare chi handler that runs the service's same SQL directly on pgx (or
// database/sql for SQLite), side by side in one run, so the ratio shows
// what the service's layers cost. Run them with `make bench`; the ratio
// command (./server/bench/ratio) turns the output into a table.
//
// TestBaselineRunsSameSQL keeps the comparison honest: it traces one
// request of each handler on PostgreSQL and fails if the bare handler's
// statements differ from the service's.
package bench
