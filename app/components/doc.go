// Package components holds the presentational pieces that more than one
// part of the app renders, with no behaviour of their own, so that the
// server can prerender them without linking the pages that use them in
// the browser.
package components
