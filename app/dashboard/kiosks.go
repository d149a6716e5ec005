package dashboard

import (
	"sort"

	"github.com/feedbackhq/feedback/shared/feedback"
)

// kioskList is the overview's list of the workspace's kiosks, read again
// on every kiosk.* event and every minute.
type kioskList struct {
	items   []feedback.Kiosk // the kiosks in service, by name
	loaded  bool
	reading bool // a read is under way
	again   bool // an event arrived during the read: read once more
}

// set takes a read's answer: the kiosks that are not revoked, by name.
func (l *kioskList) set(all []feedback.Kiosk) {
	l.items = l.items[:0]
	for _, k := range all {
		if k.RevokedAt == nil {
			l.items = append(l.items, k)
		}
	}
	sort.SliceStable(l.items, func(i, j int) bool { return l.items[i].Name < l.items[j].Name })
	l.loaded = true
}
