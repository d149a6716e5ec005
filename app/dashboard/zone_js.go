//go:build js && wasm

package dashboard

import (
	"syscall/js"
	"time"
)

// The browser's Intl.DateTimeFormat of each zone and style, made once.
var formats = map[string]js.Value{}

// format formats t in z with the options of style: "date" is
// 2006-01-02 (Canadian English writes dates so), "label" "Tue 24 Nov".
// A zone the browser does not know is read as UTC.
func (z zone) format(t time.Time, style string) string {
	k := string(z) + " " + style
	f, ok := formats[k]
	if !ok {
		f = newFormat(string(z), style)
		formats[k] = f
	}
	return f.Call("format", js.ValueOf(float64(t.UnixMilli()))).String()
}

func newFormat(tz, style string) (f js.Value) {
	locale, opts := "en-CA", map[string]any{"year": "numeric", "month": "2-digit", "day": "2-digit"}
	if style == "label" {
		locale, opts = "en-GB", map[string]any{"weekday": "short", "day": "numeric", "month": "short"}
	}
	ctor := js.Global().Get("Intl").Get("DateTimeFormat")
	defer func() {
		if recover() != nil { // a RangeError: an unknown zone
			opts["timeZone"] = "UTC"
			f = ctor.New(locale, opts)
		}
	}()
	opts["timeZone"] = tz
	return ctor.New(locale, opts)
}

// date returns t's local date in z, 2006-01-02.
func (z zone) date(t time.Time) string { return z.format(t, "date") }

// label names t's local day in z for people: "Tue 24 Nov".
func (z zone) label(t time.Time) string { return z.format(t, "label") }
