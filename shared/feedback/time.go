package feedback

import (
	"fmt"
	"time"
)

// TimeFormat is the layout of every timestamp on the wire: RFC 3339 in UTC
// with exactly three fractional digits, for example 2026-11-21T07:47:29.507Z.
const TimeFormat = "2006-01-02T15:04:05.000Z07:00"

// Time is a time.Time that encodes as [TimeFormat] in UTC and decodes any
// RFC 3339 date-time.
type Time struct{ time.Time }

// NewTime returns t as a [Time] in UTC, truncated to microseconds, the
// precision every store keeps.
func NewTime(t time.Time) Time { return Time{t.UTC().Truncate(time.Microsecond)} }

// String formats t with [TimeFormat].
func (t Time) String() string { return t.UTC().Format(TimeFormat) }

// MarshalJSON encodes t as a JSON string in [TimeFormat]. (It must be
// MarshalJSON: time.Time's, promoted from the embedded field, would win
// over a MarshalText.)
func (t Time) MarshalJSON() ([]byte, error) {
	b := make([]byte, 0, len(TimeFormat)+2)
	return append(appendTime(append(b, '"'), t.UTC()), '"'), nil
}

// appendTime appends u, a time in UTC, in [TimeFormat]: digit by digit
// for the years 0 to 9999, which is several times faster than
// AppendFormat's parse of the layout (a page of 50 items formats 100).
func appendTime(b []byte, u time.Time) []byte {
	year, month, day := u.Date()
	if year < 0 || year > 9999 {
		return u.AppendFormat(b, TimeFormat)
	}
	hour, minute, sec := u.Clock()
	b = appendDigits(b, year, 4)
	b = appendDigits(append(b, '-'), int(month), 2)
	b = appendDigits(append(b, '-'), day, 2)
	b = appendDigits(append(b, 'T'), hour, 2)
	b = appendDigits(append(b, ':'), minute, 2)
	b = appendDigits(append(b, ':'), sec, 2)
	b = appendDigits(append(b, '.'), u.Nanosecond()/int(time.Millisecond), 3)
	return append(b, 'Z')
}

// appendDigits appends v, 0 <= v < 10^n, as n decimal digits.
func appendDigits(b []byte, v, n int) []byte {
	for i := n - 1; i >= 0; i-- {
		b = append(b, 0)
	}
	for i := len(b) - 1; n > 0; i, n = i-1, n-1 {
		b[i] = byte('0' + v%10)
		v /= 10
	}
	return b
}

// UnmarshalJSON decodes an RFC 3339 date-time string.
func (t *Time) UnmarshalJSON(b []byte) error {
	if len(b) < 2 || b[0] != '"' || b[len(b)-1] != '"' {
		return fmt.Errorf("must be an RFC 3339 date-time string")
	}
	v, err := time.Parse(time.RFC3339Nano, string(b[1:len(b)-1]))
	if err != nil {
		return fmt.Errorf("must be an RFC 3339 date-time")
	}
	*t = NewTime(v)
	return nil
}

// ParseTimeBound parses a from or to query value: an RFC 3339 date-time
// with offset, or a date YYYY-MM-DD meaning 00:00 UTC of that day.
func ParseTimeBound(s string) (time.Time, error) {
	if len(s) == len(time.DateOnly) {
		d, err := time.Parse(time.DateOnly, s)
		if err == nil {
			return d.UTC(), nil
		}
	}
	t, err := time.Parse(time.RFC3339Nano, s)
	if err != nil {
		return time.Time{}, fmt.Errorf("must be an RFC 3339 date-time or a date YYYY-MM-DD")
	}
	return t.UTC(), nil
}
