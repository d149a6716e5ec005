package schemadiff_test

import (
	"context"
	"testing"

	"github.com/feedbackhq/feedback/server/internal/pgtest"
	"github.com/feedbackhq/feedback/server/postgres"
	"github.com/feedbackhq/feedback/server/sqlstore"
)

// postgresSchema reads the schema of a fresh, migrated PostgreSQL
// database.
func postgresSchema(t *testing.T) schema {
	ctx := context.Background()
	db, err := postgres.Open(ctx, pgtest.URL(t))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if err := db.Migrate(ctx); err != nil {
		t.Fatal(err)
	}
	s := schema{}
	q := db.SQL()
	each(t, q, `SELECT table_name, column_name, data_type, is_nullable = 'NO' FROM information_schema.columns
		WHERE table_schema = 'public' AND table_name <> 'goose_db_version'`, func(r sqlstore.Rows) error {
		var tname, cname, kind string
		var notNull bool
		err := r.Scan(&tname, &cname, &kind, &notNull)
		s.table(tname).columns[cname] = column{kindOf(kind), notNull}
		return err
	})
	// Key columns only: the columns an index INCLUDEs (PostgreSQL's
	// covering indexes, which SQLite lacks) change no constraint.
	each(t, q, `SELECT t.relname, ix.indisprimary, ix.indisunique, COALESCE(pg_get_expr(ix.indpred, ix.indrelid), ''),
			ARRAY(SELECT pg_get_indexdef(ix.indexrelid, k + 1, true) || CASE WHEN ix.indoption[k] & 1 = 1 THEN ' desc' ELSE '' END
				FROM generate_series(0, ix.indnkeyatts - 1) AS k ORDER BY k)
		FROM pg_index ix JOIN pg_class t ON t.oid = ix.indrelid JOIN pg_namespace n ON n.oid = t.relnamespace
		WHERE n.nspname = 'public' AND t.relname <> 'goose_db_version'`, func(r sqlstore.Rows) error {
		var tname, pred string
		var primary, unique bool
		var cols []string
		err := r.Scan(&tname, &primary, &unique, &pred, &cols)
		if primary {
			s.table(tname).primary = cols
		} else {
			s.table(tname).addIndex(index{columns: cols, unique: unique, predicate: normalize(pred)})
		}
		return err
	})
	each(t, q, `SELECT cl.relname,
			ARRAY(SELECT a.attname::text FROM unnest(c.conkey) WITH ORDINALITY AS k(n, o)
				JOIN pg_attribute a ON a.attrelid = c.conrelid AND a.attnum = k.n ORDER BY k.o),
			rf.relname,
			ARRAY(SELECT a.attname::text FROM unnest(c.confkey) WITH ORDINALITY AS k(n, o)
				JOIN pg_attribute a ON a.attrelid = c.confrelid AND a.attnum = k.n ORDER BY k.o),
			CASE c.confdeltype WHEN 'c' THEN 'cascade' WHEN 'n' THEN 'set null' WHEN 'd' THEN 'set default'
				WHEN 'r' THEN 'restrict' ELSE 'no action' END
		FROM pg_constraint c JOIN pg_class cl ON cl.oid = c.conrelid JOIN pg_class rf ON rf.oid = c.confrelid
		JOIN pg_namespace n ON n.oid = cl.relnamespace
		WHERE c.contype = 'f' AND n.nspname = 'public'`, func(r sqlstore.Rows) error {
		var tname, ref, onDelete string
		var cols, refCols []string
		err := r.Scan(&tname, &cols, &ref, &refCols, &onDelete)
		s.table(tname).addForeign(cols, ref, refCols, onDelete)
		return err
	})
	return s
}

// table returns the table name, made on first use.
func (s schema) table(name string) *table {
	if s[name] == nil {
		s[name] = newTable()
	}
	return s[name]
}

// each runs query on q and calls fn for each row.
func each(t *testing.T, q sqlstore.Conn, query string, fn func(sqlstore.Rows) error, args ...any) {
	t.Helper()
	rows, err := q.Query(context.Background(), query, args...)
	if err != nil {
		t.Fatalf("%v\n%s", err, query)
	}
	defer rows.Close()
	for rows.Next() {
		if err := fn(rows); err != nil {
			t.Fatalf("%v\n%s", err, query)
		}
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
}
