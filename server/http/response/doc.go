// Package response writes the answers of every audience: JSON and list
// envelopes, RFC 9457 problems (application/problem+json), and the one
// adapter that answers the error a handler returns, as a problem for the
// API and the devices or as an HTML page for people.
//
// Every handler has the shape [HandlerFunc]: it writes a response or
// returns an error, so that none can forget to answer one. [Errors]
// adapts it to an [http.HandlerFunc] and is the only place where errors
// meet statuses ([Status]) and where the service's own failures are
// logged; only their client-safe message reaches the client.
package response
