// Package e2e holds the end-to-end tests of the progressive web app: real
// feedbackd processes serving a real WebAssembly build to Debian's
// Chromium, driven through the DevTools protocol (chromedp). They cover
// the form without the wasm, input typed before the wasm loads, the
// offline queue, server outages, the kiosk, app updates, the first
// visit's transfer budget, WCAG 2.2 AA checks with axe-core, and the
// dashboard's sign-in through an OpenID provider with its Active
// sessions page.
//
// The tests need /usr/bin/chromium. Without it they skip with one line,
// unless CI=true, which makes that a failure. The accessibility test also
// needs axe-core (FEEDBACK_AXE_JS, or .ci/node/node_modules/axe-core,
// installed by .ci/run).
package e2e
