// Package dashboard is the signed-in part of the app: a workspace's
// dashboard at /w/{slug}/ (and every path below it) and the user's
// security settings at /settings/security, where the active sessions are
// listed and revoked.
//
// The server prerenders [Page] as a shell in its loading state, the same
// for every visitor: no user data and no request text reach the HTML. In
// the browser the WebAssembly mounts the same component, asks the API who
// is signed in (GET /api/v1/me, with the session cookies) and shows either
// the signed-out view with its Sign in link or the dashboard.
//
// The API is reached through window.fetch (app/browser), never net/http,
// which would add 5 MB to the wasm.
package dashboard
