// Package openapitest checks HTTP traffic against the service's OpenAPI
// document in tests, so that the document cannot drift from the code.
//
// A [Validator] wraps an [http.RoundTripper]. For every request under
// /api/v1 or /api (the prefix is stripped before routing, as both serve
// the same API) it finds the documented operation, validates the request,
// performs it, and validates the response: status, headers and body.
//
// Path items whose servers are overridden with [{url: /}], such as the
// visitor and kiosk endpoints /q/{code} and /kiosk/pair, are served at
// the root of the service instead: a request under the first segment of
// one of their paths (/q/..., /kiosk/...) is routed by its full path,
// and validated the same way. An HTML page (text/html) is checked by its
// Content-Type only. Requests elsewhere, such as /healthz, pass through
// untouched. The request reaches the server as sent, its body included,
// whatever its media type. A mismatch fails the test:
//
//	v := openapitest.New(t, api.OpenAPI)
//	client := &http.Client{Transport: v.Transport(http.DefaultTransport)}
//	resp, err := client.Get(srv.URL + "/api/v1/review")
//
// The validator also records which operations were exercised with which
// statuses, so that a suite can check that every documented operation was
// tried at least once ([Validator.CheckCoverage]).
package openapitest
