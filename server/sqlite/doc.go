// Package sqlite is the embedded SQLite store (modernc.org/sqlite, no
// cgo): [Open] returns a [DB] that runs the queries of server/sqlstore on
// one writer connection and a pool of readers over a WAL database,
// applies its embedded migrations with [DB.Migrate], and rate-limits in
// process.
package sqlite
