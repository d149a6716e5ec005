// Package sqlstore implements the queries of [server.Store] once, in SQL
// that PostgreSQL and SQLite both run, over the small [DB] adapter that
// the dialect packages (server/postgres with pgx, server/sqlite with
// database/sql) provide.
//
// The SQL is inline, with explicit column lists and $1..$n placeholders.
// Each method that writes runs in one transaction; lowercase helpers hold
// the statements. Ids are UUID strings (uuid on PostgreSQL, TEXT on
// SQLite), times are UTC with microsecond precision (timestamptz, or
// INTEGER microseconds declared TIMESTAMP), JSON is jsonb or TEXT.
//
// A list answers its total with its page. The lists of what visitors
// submit grow without bound, so their totals come from hourly counters
// (list_counts, see count.go) that the transaction of each insert keeps,
// plus exact counts of the partial hours at the edges of a from/to; the
// other lists are small per workspace and counted row by row.
//
// What differs between the databases stays in the dialect packages:
// opening, migrations, the rate limiter, error classification (they mark
// driver errors with [ErrNoRows], [ErrUnique] and [ErrForeignKey]) and the
// few words of SQL in [Dialect].
package sqlstore
