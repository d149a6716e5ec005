// Package inmem holds what a single feedbackd process keeps in memory
// where a scaled-out deployment uses PostgreSQL: for now the fixed-window
// rate [Limiter] of the SQLite store, and the window arithmetic that the
// PostgreSQL limiter shares.
package inmem
