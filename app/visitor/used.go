package visitor

import (
	"strings"

	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// usedKey names the localStorage entry that remembers the ids of recent
// submissions, so that a cached copy of a page, whose hidden id was sent
// already, gets a fresh one instead of a conflict.
const (
	usedKey  = "feedback.used-ids"
	usedKeep = 200
)

func usedIDs() []string {
	if !app.IsClient {
		return nil
	}
	v := app.Window().Get("localStorage").Call("getItem", usedKey)
	if !v.Truthy() {
		return nil
	}
	return strings.Fields(v.String())
}

// used reports whether id was submitted from this device.
func used(id string) bool { return has(usedIDs(), id) }

// markUsed remembers id, keeping the most recent ones.
func markUsed(id string) {
	if !app.IsClient {
		return
	}
	ids := append(usedIDs(), id)
	if len(ids) > usedKeep {
		ids = ids[len(ids)-usedKeep:]
	}
	app.Window().Get("localStorage").Call("setItem", usedKey, strings.Join(ids, " "))
}
