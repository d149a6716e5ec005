// Package postgres is the PostgreSQL store: [Open] returns a [DB] that
// runs the queries of server/sqlstore on a pgx connection pool, applies
// its embedded migrations with [DB.Migrate], and counts rate limits in
// the database, so that every feedbackd instance shares one budget.
package postgres
