package sqlstore

import (
	"database/sql"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/feedbackhq/feedback/shared/feedback"
)

// Scan destinations and arguments that read and write the same Go values
// on both databases. Drivers hand a sql.Scanner the value they would give
// database/sql: time.Time (or INTEGER microseconds where SQLite cannot
// tell a column's declared type), string or []byte, or nil for NULL.

// timeDest scans a timestamp in UTC; null handles NULL.
type timeDest struct {
	set  func(time.Time)
	null func()
}

// Scan implements sql.Scanner.
func (d timeDest) Scan(src any) error {
	switch v := src.(type) {
	case time.Time:
		d.set(v.UTC())
	case int64:
		d.set(time.UnixMicro(v).UTC())
	case nil:
		if d.null == nil {
			return fmt.Errorf("sqlstore: unexpected NULL timestamp")
		}
		d.null()
	default:
		return fmt.Errorf("sqlstore: cannot scan %T as a timestamp", src)
	}
	return nil
}

// at scans a NOT NULL timestamp into t.
func at(t *feedback.Time) sql.Scanner {
	return timeDest{set: func(v time.Time) { t.Time = v }}
}

// atTime scans a NOT NULL timestamp into t.
func atTime(t *time.Time) sql.Scanner {
	return timeDest{set: func(v time.Time) { *t = v }}
}

// atOpt scans a nullable timestamp into *t.
func atOpt(t **feedback.Time) sql.Scanner {
	return timeDest{
		set:  func(v time.Time) { *t = &feedback.Time{Time: v} },
		null: func() { *t = nil },
	}
}

// atOptTime scans a nullable timestamp into *t.
func atOptTime(t **time.Time) sql.Scanner {
	return timeDest{set: func(v time.Time) { *t = &v }, null: func() { *t = nil }}
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
type jsonDest struct{ v any }

// Scan implements sql.Scanner.
func (d jsonDest) Scan(src any) error {
	switch b := src.(type) {
	case string:
		return json.Unmarshal([]byte(b), d.v)
	case []byte:
		return json.Unmarshal(b, d.v)
	}
	return fmt.Errorf("sqlstore: cannot scan %T as JSON", src)
}

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
