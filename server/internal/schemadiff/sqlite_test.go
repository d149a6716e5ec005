package schemadiff_test

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/feedbackhq/feedback/server/sqlite"
	"github.com/feedbackhq/feedback/server/sqlstore"
)

// sqliteSchema reads the schema of a fresh, migrated SQLite database.
func sqliteSchema(t *testing.T) schema {
	ctx := context.Background()
	db, err := sqlite.Open(ctx, filepath.Join(t.TempDir(), "schema.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if err := db.Migrate(ctx); err != nil {
		t.Fatal(err)
	}
	q := db.SQL()
	s := schema{}
	var tables []string
	each(t, q, `SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite\_%' ESCAPE '\'
		AND name <> 'goose_db_version'`, func(r sqlstore.Rows) error {
		var name string
		err := r.Scan(&name)
		tables = append(tables, name)
		return err
	})
	for _, name := range tables {
		sqliteTable(t, q, s.table(name), name)
	}
	return s
}

// sqliteTable reads one table's columns, primary key, indexes and
// foreign keys through SQLite's pragma functions.
func sqliteTable(t *testing.T, q sqlstore.Conn, tb *table, name string) {
	var pk []string
	each(t, q, `SELECT name, type, "notnull", pk FROM pragma_table_info(?) ORDER BY pk, cid`, func(r sqlstore.Rows) error {
		var cname, kind string
		var notNull bool
		var pkPos int
		err := r.Scan(&cname, &kind, &notNull, &pkPos)
		tb.columns[cname] = column{kindOf(kind), notNull}
		if pkPos > 0 {
			pk = append(pk, cname)
		}
		return err
	}, name)
	tb.primary = pk
	if len(pk) == 1 && tb.columns[pk[0]].kind == "int" {
		// INTEGER PRIMARY KEY is the rowid: never NULL, though the
		// pragma does not say NOT NULL.
		c := tb.columns[pk[0]]
		c.notNull = true
		tb.columns[pk[0]] = c
	}
	type idx struct {
		name, origin string
		unique       bool
	}
	var idxs []idx
	each(t, q, `SELECT name, origin, "unique" FROM pragma_index_list(?)`, func(r sqlstore.Rows) error {
		var i idx
		err := r.Scan(&i.name, &i.origin, &i.unique)
		idxs = append(idxs, i)
		return err
	}, name)
	for _, i := range idxs {
		if i.origin == "pk" {
			continue // the primary key, read from the columns
		}
		tb.addIndex(index{columns: indexColumns(t, q, i.name), unique: i.unique, predicate: normalize(predicate(t, q, i.name))})
	}
	foreignKeys(t, q, tb, name)
}

// indexColumns returns an index's key columns in order, " desc" after
// the descending ones, and an expression as its text.
func indexColumns(t *testing.T, q sqlstore.Conn, name string) []string {
	var cols []string
	each(t, q, `SELECT COALESCE(name, '(expression)'), "desc" FROM pragma_index_xinfo(?) WHERE key = 1 ORDER BY seqno`,
		func(r sqlstore.Rows) error {
			var col string
			var desc bool
			err := r.Scan(&col, &desc)
			if desc {
				col += " desc"
			}
			cols = append(cols, col)
			return err
		}, name)
	return cols
}

// predicate returns the WHERE clause of a partial index's definition.
func predicate(t *testing.T, q sqlstore.Conn, name string) string {
	var sql string
	each(t, q, `SELECT COALESCE(sql, '') FROM sqlite_master WHERE type = 'index' AND name = ?`, func(r sqlstore.Rows) error {
		return r.Scan(&sql)
	}, name)
	if i := strings.Index(strings.ToUpper(sql), " WHERE "); i >= 0 {
		return sql[i+len(" WHERE "):]
	}
	return ""
}

// foreignKeys records the table's foreign keys, each of one or more
// columns.
func foreignKeys(t *testing.T, q sqlstore.Conn, tb *table, name string) {
	type fk struct {
		ref, onDelete string
		cols, refCols []string
	}
	byID := map[int]*fk{}
	var order []int
	each(t, q, `SELECT id, "table", "from", "to", on_delete FROM pragma_foreign_key_list(?) ORDER BY id, seq`,
		func(r sqlstore.Rows) error {
			var id int
			var ref, from, to, onDelete string
			err := r.Scan(&id, &ref, &from, &to, &onDelete)
			if byID[id] == nil {
				byID[id] = &fk{ref: ref, onDelete: onDelete}
				order = append(order, id)
			}
			byID[id].cols = append(byID[id].cols, from)
			byID[id].refCols = append(byID[id].refCols, to)
			return err
		}, name)
	for _, id := range order {
		f := byID[id]
		tb.addForeign(f.cols, f.ref, f.refCols, f.onDelete)
	}
}
