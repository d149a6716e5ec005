package sqlstore

import (
	"database/sql"
	"encoding/json"
	"fmt"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/feedbackhq/feedback/shared/feedback"
)

// Scan destinations and arguments that read and write the same Go values
// on both databases. Drivers hand a sql.Scanner the value they would give
// database/sql: time.Time (or INTEGER microseconds where SQLite cannot
// tell a column's declared type), string or []byte, or nil for NULL.

// utcTime scans a NOT NULL timestamp in UTC. It is a pointer to the
// destination itself, so that handing it to Scan as a [sql.Scanner]
// allocates nothing (a page scans two per row).
type utcTime time.Time

// Scan implements sql.Scanner.
func (d *utcTime) Scan(src any) error {
	t, err := scanTime(src)
	if err == nil {
		*d = utcTime(t)
	}
	return err
}

// optTime scans a nullable timestamp in UTC: set receives it, null
// handles NULL.
type optTime struct {
	set  func(time.Time)
	null func()
}

// Scan implements sql.Scanner.
func (d optTime) Scan(src any) error {
	if src == nil {
		d.null()
		return nil
	}
	t, err := scanTime(src)
	if err == nil {
		d.set(t)
	}
	return err
}

// scanTime converts what a driver hands a sql.Scanner for a timestamp
// to a time in UTC.
func scanTime(src any) (time.Time, error) {
	switch v := src.(type) {
	case time.Time:
		return v.UTC(), nil
	case int64:
		return time.UnixMicro(v).UTC(), nil
	case nil:
		return time.Time{}, fmt.Errorf("sqlstore: unexpected NULL timestamp")
	}
	return time.Time{}, fmt.Errorf("sqlstore: cannot scan %T as a timestamp", src)
}

// at scans a NOT NULL timestamp into t.
func at(t *feedback.Time) sql.Scanner { return (*utcTime)(&t.Time) }

// atTime scans a NOT NULL timestamp into t.
func atTime(t *time.Time) sql.Scanner { return (*utcTime)(t) }

// atOpt scans a nullable timestamp into *t.
func atOpt(t **feedback.Time) sql.Scanner {
	return optTime{
		set:  func(v time.Time) { *t = &feedback.Time{Time: v} },
		null: func() { *t = nil },
	}
}

// atOptTime scans a nullable timestamp into *t.
func atOptTime(t **time.Time) sql.Scanner {
	return optTime{set: func(v time.Time) { *t = &v }, null: func() { *t = nil }}
}

// OptString scans a nullable column (text or uuid) into S, "" for NULL.
type OptString struct{ S *string }

// Scan implements sql.Scanner.
func (d OptString) Scan(src any) error {
	switch v := src.(type) {
	case nil:
		*d.S = ""
	case string:
		*d.S = v
	case []byte:
		*d.S = string(v)
	default:
		return fmt.Errorf("sqlstore: cannot scan %T as a string", src)
	}
	return nil
}

// wordsDest scans a text column of space-separated words (scopes, amr)
// into a list.
type wordsDest struct{ v *[]string }

// Scan implements sql.Scanner.
func (d wordsDest) Scan(src any) error {
	switch v := src.(type) {
	case string:
		*d.v = strings.Fields(v)
	case []byte:
		*d.v = strings.Fields(string(v))
	default:
		return fmt.Errorf("sqlstore: cannot scan %T as words", src)
	}
	return nil
}

// words scans a NOT NULL text column of space-separated words into *v.
func words(v *[]string) sql.Scanner { return wordsDest{v} }

// wordsArg returns the text column of the words of v.
func wordsArg(v []string) string { return strings.Join(v, " ") }

// jsonDest scans a JSON column (jsonb or TEXT) into v with json.Unmarshal.
// It holds one pointer, so that boxing it as a [sql.Scanner] allocates
// nothing.
type jsonDest[T any] struct{ v *T }

// Scan implements sql.Scanner.
func (d jsonDest[T]) Scan(src any) error {
	switch b := src.(type) {
	case string:
		return d.unmarshal([]byte(b))
	case []byte:
		return d.unmarshal(b)
	}
	return fmt.Errorf("sqlstore: cannot scan %T as JSON", src)
}

// unmarshal decodes b into d.v. A list of strings without escapes (the
// tags that every hygiene row holds) is read without encoding/json,
// whose reflection and allocations were a tenth of a list request's
// CPU; anything else goes through json.Unmarshal.
func (d jsonDest[T]) unmarshal(b []byte) error {
	if p, ok := any(d.v).(*[]string); ok {
		if list, ok := plainStrings(b); ok {
			*p = list
			return nil
		}
	}
	return json.Unmarshal(b, d.v)
}

// plainStrings reads a JSON array of strings none of which holds a
// backslash, a control character or invalid UTF-8, such as ["no_soap", "no_paper"]
// (PostgreSQL's jsonb text puts a space after each comma); ok is false
// for anything else. A hygiene tag comes back as the package's own
// string, so that it costs no allocation.
func plainStrings(b []byte) (list []string, ok bool) {
	i := skipSpace(b, 0)
	if i == len(b) || b[i] != '[' {
		return nil, false
	}
	list = []string{}
	for i = skipSpace(b, i+1); i < len(b) && b[i] != ']'; {
		if len(list) > 0 {
			if b[i] != ',' {
				return nil, false
			}
			i = skipSpace(b, i+1)
		}
		if i == len(b) || b[i] != '"' {
			return nil, false
		}
		end := i + 1
		for end < len(b) && b[end] != '"' {
			if b[end] == '\\' || b[end] < 0x20 {
				return nil, false
			}
			end++
		}
		if end == len(b) || !utf8.Valid(b[i+1:end]) { // encoding/json would replace invalid bytes
			return nil, false
		}
		list = append(list, internTag(b[i+1:end]))
		i = skipSpace(b, end+1)
	}
	if i == len(b) || skipSpace(b, i+1) != len(b) {
		return nil, false
	}
	return list, true
}

// skipSpace returns the index of the first byte of b from i on that is
// not JSON white space.
func skipSpace(b []byte, i int) int {
	for i < len(b) && (b[i] == ' ' || b[i] == '\t' || b[i] == '\n' || b[i] == '\r') {
		i++
	}
	return i
}

// internTag returns b as a string: the hygiene tag's own when it is one.
func internTag(b []byte) string {
	for _, t := range feedback.HygieneTags {
		if string(b) == t {
			return t
		}
	}
	return string(b)
}

// asJSON scans a JSON column into *v.
func asJSON[T any](v *T) sql.Scanner { return jsonDest[T]{v} }

// jsonArg encodes v as a JSON argument: a string, which pgx sends as
// jsonb text and SQLite stores as TEXT.
func jsonArg(v any) (string, error) {
	b, err := json.Marshal(v)
	return string(b), err
}

// Null returns nil (SQL NULL) for "", and s otherwise; for optional uuid
// references.
func Null(s string) any {
	if s == "" {
		return nil
	}
	return s
}

// timeArg returns a nullable timestamp argument: *t, or nil (SQL NULL).
func timeArg(t *time.Time) any {
	if t == nil {
		return nil
	}
	return *t
}

// feedbackTimeArg is timeArg for a *feedback.Time.
func feedbackTimeArg(t *feedback.Time) any {
	if t == nil {
		return nil
	}
	return t.Time
}

// truncate returns t in UTC with microsecond precision, or nil.
func truncate(t *time.Time) *time.Time {
	if t == nil {
		return nil
	}
	v := t.UTC().Truncate(time.Microsecond)
	return &v
}

// scanString scans a row of one text column.
func scanString(r Row) (s string, err error) { return s, r.Scan(&s) }
