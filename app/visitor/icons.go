package visitor

import (
	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// The faces and the star are inline SVG, not emoji or text glyphs, so
// that every device draws the same thing: a device without a colour
// emoji font showed two of the five faces as empty boxes. The outline of
// a face and the star are drawn once, in sprite, and each choice refers
// to them with <use>. Every string here is constant: go-app writes raw
// HTML as it is.
const sprite = `<svg xmlns="http://www.w3.org/2000/svg" class="sprite" width="0" height="0" aria-hidden="true" focusable="false">` +
	`<symbol id="face" viewBox="0 0 40 40"><circle cx="20" cy="20" r="18" stroke="currentColor" stroke-width="2.5"/>` +
	`<circle cx="14" cy="16" r="2.5" fill="currentColor"/><circle cx="26" cy="16" r="2.5" fill="currentColor"/></symbol>` +
	`<symbol id="star" viewBox="0 0 24 24"><path d="M12 2.5l2.9 6 6.6.9-4.8 4.6 1.2 6.5L12 17.4l-5.9 3.1 1.2-6.5-4.8-4.6 6.6-.9z" ` +
	`stroke="currentColor" stroke-width="1.6" stroke-linejoin="round"/></symbol></svg>`

// mouths and skins draw the five hygiene faces, from very dirty to very
// clean: the mouth's path and the face's colour.
var (
	mouths = []string{"M12 30q8-9 16 0", "M13 29q7-5 14 0", "M13 27h14", "M13 25q7 5 14 0", "M12 24q8 9 16 0"}
	skins  = []string{"#f4a7a0", "#f8c89b", "#f5df8a", "#c9e4a0", "#9dd6a6"}
)

// face draws hygiene face n (1 to 5).
func face(n int) app.UI {
	return app.Raw(`<svg class="face" viewBox="0 0 40 40" aria-hidden="true" focusable="false">` +
		`<use href="#face" fill="` + skins[n-1] + `"/><path d="` + mouths[n-1] +
		`" fill="none" stroke="currentColor" stroke-width="2.5" stroke-linecap="round"/></svg>`)
}

// star draws a star of the review's rating.
func star() app.UI {
	return app.Raw(`<svg class="star" viewBox="0 0 24 24" aria-hidden="true" focusable="false"><use href="#star"/></svg>`)
}
