package schemadiff_test

import (
	"fmt"
	"maps"
	"slices"
	"strings"
)

// schema is what the test compares: every table by name.
type schema map[string]*table

// table is a table's comparable shape. Columns keep their declared kind
// in the dialect's words; kindOf maps them to one vocabulary.
type table struct {
	columns map[string]column
	primary []string          // the primary key's columns, in key order
	indexes map[string]index  // unique constraints and indexes, by their shape (names differ: SQLite names its own)
	foreign map[string]string // a description of each foreign key, keyed by it
}

// column is a column's kind (text, int, bool, time, bytes, json, uuid)
// and whether it may be NULL.
type column struct {
	kind    string
	notNull bool
}

// index is an index's columns (or expressions), in order, whether it is
// unique, and its predicate when it is partial, normalised.
type index struct {
	columns   []string
	unique    bool
	predicate string
}

func newTable() *table {
	return &table{columns: map[string]column{}, indexes: map[string]index{}, foreign: map[string]string{}}
}

// addIndex records an index under its shape.
func (t *table) addIndex(i index) { t.indexes[i.String()] = i }

// addForeign records a foreign key: its columns, the table and columns it
// refers to, and what deleting the referred row does.
func (t *table) addForeign(cols []string, ref string, refCols []string, onDelete string) {
	f := fmt.Sprintf("(%s) REFERENCES %s (%s) ON DELETE %s", strings.Join(cols, ", "), ref, strings.Join(refCols, ", "),
		strings.ToUpper(onDelete))
	t.foreign[f] = f
}

// diff lists every difference between a (PostgreSQL) and b (SQLite), one
// line each, in a stable order.
func diff(a, b schema) []string {
	var out []string
	for _, name := range union(a, b) {
		ta, tb := a[name], b[name]
		switch {
		case ta == nil:
			out = append(out, "table "+name+": only in SQLite")
		case tb == nil:
			out = append(out, "table "+name+": only in PostgreSQL")
		default:
			out = append(out, diffTable(name, ta, tb)...)
		}
	}
	return out
}

func diffTable(name string, a, b *table) []string {
	var out []string
	for _, c := range union(a.columns, b.columns) {
		ca, inA := a.columns[c]
		cb, inB := b.columns[c]
		switch {
		case !inA || !inB:
			out = append(out, fmt.Sprintf("column %s.%s: only in %s", name, c, which(inA)))
		case !sameKind(ca.kind, cb.kind):
			out = append(out, fmt.Sprintf("column %s.%s: kind %s in PostgreSQL, %s in SQLite", name, c, ca.kind, cb.kind))
		case ca.notNull != cb.notNull:
			out = append(out, fmt.Sprintf("column %s.%s: NOT NULL %v in PostgreSQL, %v in SQLite", name, c, ca.notNull, cb.notNull))
		}
	}
	if !slices.Equal(a.primary, b.primary) {
		out = append(out, fmt.Sprintf("table %s: primary key (%s) in PostgreSQL, (%s) in SQLite", name,
			strings.Join(a.primary, ", "), strings.Join(b.primary, ", ")))
	}
	for _, i := range union(a.indexes, b.indexes) {
		if _, inA := a.indexes[i]; !inA || b.indexes[i].columns == nil {
			out = append(out, fmt.Sprintf("index %s on %s: only in %s", i, name, which(inA)))
		}
	}
	for _, f := range union(a.foreign, b.foreign) {
		if _, inA := a.foreign[f]; !inA || b.foreign[f] == "" {
			out = append(out, fmt.Sprintf("foreign key of %s %s: only in %s", name, f, which(inA)))
		}
	}
	return out
}

func (i index) String() string {
	s := "(" + strings.Join(i.columns, ", ") + ")"
	if i.unique {
		s = "UNIQUE " + s
	}
	if i.predicate != "" {
		s += " WHERE " + i.predicate
	}
	return s
}

func which(inPostgres bool) string {
	if inPostgres {
		return "PostgreSQL"
	}
	return "SQLite"
}

// union returns the keys of a and b, sorted.
func union[V any](a, b map[string]V) []string {
	keys := slices.Collect(maps.Keys(a))
	for k := range b {
		if _, ok := a[k]; !ok {
			keys = append(keys, k)
		}
	}
	slices.Sort(keys)
	return keys
}

// kindOf maps a declared type of either dialect to one vocabulary.
func kindOf(declared string) string {
	switch t := strings.ToLower(strings.TrimSpace(declared)); {
	case t == "text", strings.HasPrefix(t, "character varying"), strings.HasPrefix(t, "varchar"):
		return "text"
	case t == "integer", t == "bigint", t == "smallint", t == "int":
		return "int"
	case t == "boolean", t == "bool":
		return "bool"
	case t == "double precision", t == "float8", t == "double":
		return "float8"
	case strings.HasPrefix(t, "timestamp"):
		return "time"
	case t == "bytea", t == "blob":
		return "bytes"
	case t == "jsonb", t == "json":
		return "json"
	case t == "uuid":
		return "uuid"
	default:
		return t
	}
}

// sqliteKinds are the kinds a PostgreSQL column kind may have in SQLite,
// which has no uuid, json or boolean storage: uuids and JSON are TEXT
// (written and read as strings by the store), booleans INTEGER 0 or 1
// (or declared BOOLEAN, which SQLite stores the same way); SQLite's
// REAL is an 8-byte float, PostgreSQL's double precision.
var sqliteKinds = map[string][]string{
	"uuid":   {"text"},
	"json":   {"text"},
	"bool":   {"int", "bool"},
	"float8": {"float8", "real"},
}

// sameKind reports whether a column of kind pg in PostgreSQL and kind
// lite in SQLite store the same values.
func sameKind(pg, lite string) bool {
	if alts, ok := sqliteKinds[pg]; ok {
		return slices.Contains(alts, lite)
	}
	return pg == lite
}

// normalize makes a partial index's predicate comparable across the
// dialects: PostgreSQL writes casts and parentheses SQLite's text lacks.
func normalize(predicate string) string {
	p := strings.ToLower(predicate)
	for _, cast := range []string{"::text", "::timestamp with time zone", "::integer", "::bigint", "::boolean"} {
		p = strings.ReplaceAll(p, cast, "")
	}
	p = strings.NewReplacer("(", "", ")", "", " ", "", "\n", "", "\t", "").Replace(p)
	return p
}
