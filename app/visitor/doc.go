// Package visitor is the form a visitor opens by scanning a poster: the
// hygiene rating, a review or a survey. The server prerenders [Page] with
// its fields set, as a plain HTML form that posts without JavaScript; the
// WebAssembly then mounts the same component, adopts what the visitor has
// already typed (the prerendered DOM is replaced, not hydrated), and sends
// submissions through the offline queue instead.
package visitor
