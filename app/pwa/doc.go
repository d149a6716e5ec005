// Package pwa ties the progressive web app together for both halves of the
// program: the route table that the server and the WebAssembly both
// register (go-app answers 404 for routes the server never registered),
// the go-app Handler configuration, and the service worker that replaces
// go-app's default one.
//
// It imports no server package and no net/http client code beyond what
// go-app itself needs, so the wasm build stays small.
package pwa
