// Package http serves the service over HTTP with a chi router: the REST API
// under /api/v1 (and /api, as the specification's example uses), the
// visitor pages and ingest under /q/{code}, the kiosk device endpoints
// under /kiosk, health and metrics.
//
// Handlers have the shape func(w, r) error; one adapter turns every error
// into an RFC 9457 problem (application/problem+json) with a stable code,
// the request id and the invalid parameters, and logs only internal
// errors. Every query is scoped by the workspace of the authenticated
// token, so an id of another workspace is a 404.
package http
