//go:build !(js && wasm)

package dashboard

import "time"

// location returns z's location in Go's database; UTC when unknown.
func (z zone) location() *time.Location {
	l, err := time.LoadLocation(string(z))
	if err != nil {
		return time.UTC
	}
	return l
}

// date returns t's local date in z, 2006-01-02.
func (z zone) date(t time.Time) string { return t.In(z.location()).Format(time.DateOnly) }

// label names t's local day in z for people: "Tue 24 Nov".
func (z zone) label(t time.Time) string { return t.In(z.location()).Format("Mon 2 Jan") }
