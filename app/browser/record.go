//go:build js && wasm

package browser

import (
	"syscall/js"
	"time"

	"github.com/feedbackhq/feedback/app/offline"
)

// record is how an item is stored: the body as a string, so that it
// comes back byte for byte (JSON.parse would round big numbers and
// reorder keys), and Added as an RFC 3339 string with nanoseconds.
type record struct {
	ID         string
	Kind       offline.Kind
	URL        string
	Body       string
	Added      string
	Attempts   int
	LastStatus int
	LastError  string
}

func recordOf(it offline.Item) record {
	return record{ID: it.ID, Kind: it.Kind, URL: it.URL, Body: string(it.Body),
		Added: it.Added.Format(time.RFC3339Nano), Attempts: it.Attempts, LastStatus: it.LastStatus, LastError: it.LastError}
}

// item returns the item r holds; ok is false for a record this package
// did not write, which is skipped (and left in storage).
func (r record) item() (it offline.Item, ok bool) {
	added, err := time.Parse(time.RFC3339Nano, r.Added)
	if err != nil || r.ID == "" {
		return offline.Item{}, false
	}
	return offline.Item{ID: r.ID, Kind: r.Kind, URL: r.URL, Body: []byte(r.Body), Added: added,
		Attempts: r.Attempts, LastStatus: r.LastStatus, LastError: r.LastError}, true
}

// js returns r as a JavaScript object for IndexedDB.
func (r record) js() js.Value {
	return js.ValueOf(map[string]any{"ID": r.ID, "Kind": string(r.Kind), "URL": r.URL, "Body": r.Body,
		"Added": r.Added, "Attempts": r.Attempts, "LastStatus": r.LastStatus, "LastError": r.LastError})
}

// recordFromJS reads an object written by record.js.
func recordFromJS(v js.Value) record {
	str := func(k string) string {
		if p := v.Get(k); p.Type() == js.TypeString {
			return p.String()
		}
		return ""
	}
	num := func(k string) int {
		if p := v.Get(k); p.Type() == js.TypeNumber {
			return p.Int()
		}
		return 0
	}
	return record{ID: str("ID"), Kind: offline.Kind(str("Kind")), URL: str("URL"), Body: str("Body"),
		Added: str("Added"), Attempts: num("Attempts"), LastStatus: num("LastStatus"), LastError: str("LastError")}
}
