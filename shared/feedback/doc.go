// Package feedback holds the domain and wire types that the server and the
// PWA both speak: reviews, surveys, locations, posters, submissions,
// webhook subscriptions, events, the list envelope and the problem error.
//
// It imports only the standard library and compiles for GOOS=js
// GOARCH=wasm, so that the browser app and the server validate input with
// the same rules. Nothing here talks to a database or the network.
package feedback
