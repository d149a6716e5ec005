package sqlstore

import (
	"encoding/hex"
	"fmt"

	"github.com/jackc/pgx/v5/pgtype"
)

// pgx plans a scan by the column's codec before it falls back to
// sql.Scanner, and a codec hands its own scanner interfaces the decoded
// value directly; through sql.Scanner it first boxes the value (and
// copies text) for database/sql. The scan destinations that a list scans
// for every row implement those interfaces too: PostgreSQL reaches them
// without the boxing, SQLite (database/sql) through Scan as before.

// ScanTimestamptz implements pgtype.TimestamptzScanner.
func (d *utcTime) ScanTimestamptz(v pgtype.Timestamptz) error {
	if !v.Valid {
		return fmt.Errorf("sqlstore: unexpected NULL timestamp")
	}
	*d = utcTime(v.Time.UTC())
	return nil
}

// ScanUUID implements pgtype.UUIDScanner: a uuid column, "" for NULL.
func (d OptString) ScanUUID(v pgtype.UUID) error {
	if !v.Valid {
		*d.S = ""
		return nil
	}
	var b [36]byte
	hex.Encode(b[0:8], v.Bytes[0:4])
	hex.Encode(b[9:13], v.Bytes[4:6])
	hex.Encode(b[14:18], v.Bytes[6:8])
	hex.Encode(b[19:23], v.Bytes[8:10])
	hex.Encode(b[24:], v.Bytes[10:])
	b[8], b[13], b[18], b[23] = '-', '-', '-', '-'
	*d.S = string(b[:])
	return nil
}

// ScanBytes implements pgtype.BytesScanner: the JSON is read from the
// row's buffer, without a copy. NULL is refused, as by Scan.
func (d jsonDest[T]) ScanBytes(v []byte) error {
	if v == nil {
		return fmt.Errorf("sqlstore: cannot scan NULL as JSON")
	}
	return d.unmarshal(v)
}
