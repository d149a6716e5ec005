package idp

import (
	"crypto/rand"
	"database/sql"
	"encoding/base64"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/feedbackhq/feedback/server/sqlstore"
)

// errNotFound is what lookups return for a row that does not exist, has
// expired or was used.
var errNotFound = errors.New("idp: not found")

// wrap adds the operation to err.
func wrap(err *error, op string) {
	if *err != nil && !errors.Is(*err, errNotFound) {
		*err = fmt.Errorf("idp: %s: %w", op, *err)
	}
}

// orNotFound turns "no rows" into errNotFound.
func orNotFound(err error) error {
	if errors.Is(err, sqlstore.ErrNoRows) {
		return errNotFound
	}
	return err
}

// newID returns a random identifier of 128 bits, URL-safe.
func newID() string {
	b := make([]byte, 16)
	_, _ = rand.Read(b) // never fails (Go >= 1.24)
	return base64.RawURLEncoding.EncodeToString(b)
}

// timeDest scans a NOT NULL timestamp in UTC: time.Time on PostgreSQL,
// INTEGER microseconds where SQLite cannot tell the column's declared
// type (RETURNING).
type timeDest struct{ t *time.Time }

// Scan implements sql.Scanner.
func (d timeDest) Scan(src any) error {
	switch v := src.(type) {
	case time.Time:
		*d.t = v.UTC()
	case int64:
		*d.t = time.UnixMicro(v).UTC()
	default:
		return fmt.Errorf("idp: cannot scan %T as a timestamp", src)
	}
	return nil
}

// at scans a NOT NULL timestamp.
func at(t *time.Time) sql.Scanner { return timeDest{t} }

// atOpt scans a nullable timestamp into *t, nil for NULL.
func atOpt(t **time.Time) sql.Scanner {
	return scanFunc(func(src any) error {
		if src == nil {
			*t = nil
			return nil
		}
		*t = new(time.Time)
		return timeDest{*t}.Scan(src)
	})
}

// scanFunc adapts a function to sql.Scanner.
type scanFunc func(src any) error

// Scan implements sql.Scanner.
func (f scanFunc) Scan(src any) error { return f(src) }

// words splits a space-separated column.
func words(s string) []string { return strings.Fields(s) }
