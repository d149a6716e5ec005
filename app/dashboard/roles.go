package dashboard

import (
	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"github.com/feedbackhq/feedback/shared/feedback"
)

// A workspace's viewer reads every page an admin reads, but the API
// refuses them every change (403): the pages show a viewer no control
// that would change anything, and say so in one line where a whole
// section goes away, so that the page does not look broken.

// canWrite reports whether the role may change the workspace: its
// locations, posters, kiosks, forms and webhooks. An admin and a
// platform owner may; a viewer may not.
func canWrite(m *feedback.Membership) bool {
	return m != nil && (m.Role == feedback.RoleAdmin || m.Role == feedback.RoleOwner)
}

// isOwner reports whether the role may use the owner-only endpoints,
// /tokens among them.
func isOwner(m *feedback.Membership) bool {
	return m != nil && m.Role == feedback.RoleOwner
}

// writeOr is the section made by write when the role may change the
// workspace, else the line note (with the id) that tells a viewer why
// it is not there.
func writeOr(m *feedback.Membership, id, note string, write func() app.UI) app.UI {
	if canWrite(m) {
		return write()
	}
	return app.P().ID(id).Class("readonly-note").Text(note)
}

// writeOnly are the controls made by write when the role may change the
// workspace, else none: the buttons of a row.
func writeOnly(m *feedback.Membership, write func() app.UI) app.UI {
	return app.If(canWrite(m), write)
}
