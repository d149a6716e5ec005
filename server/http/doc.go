// Package http is the service's root router: the middleware every
// request passes (request id and client IP, recoverer, access log, security
// headers, compression), the answers to unknown paths and methods, and
// the routers of each audience, mounted under their prefixes:
//
//   - /api/v1 and /api: the REST API ([github.com/feedbackhq/feedback/server/api])
//   - /q and /kiosk: the visitor form and the kiosk device protocol ([github.com/feedbackhq/feedback/server/device])
//   - /auth, /w and /settings: sign-in and the dashboard's pages ([github.com/feedbackhq/feedback/server/web])
//
// It serves the rest itself: the embedded OpenID provider under /idp,
// health (/healthz, /readyz), the static files under /web, the wasm and
// go-app's own resources.
//
// The audiences share the toolkit in its sub-packages: request (ids,
// client IP, principal, parameters, strict JSON), response (problems,
// JSON, and the one adapter that answers the error of every handler,
// func(w, r) error, as a problem or as a page), ratelimit, audit and
// page (the prerendered go-app pages).
package http
