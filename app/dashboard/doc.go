// Package dashboard is the signed-in part of the app: a workspace's
// dashboard at /w/{slug}/ (and every path below it) and the user's
// security settings at /settings/security, where the active sessions are
// listed and revoked.
//
// [Shell] is the frame of every page: the workspace, the navigation, the
// user, the sign-out form and the live status. It serves every route
// (see [Register]), so it stays mounted, with the signed-in user, while
// the person moves between the pages, and it shows the page of the path
// from the route table (routes.go): one component per page, each owning
// its state (the security page its list of sessions). A new page is a
// file with its component and an entry in the table.
//
// The server prerenders the shell in its loading state, the same for
// every visitor: no user data and no request text reach the HTML. In the
// browser the WebAssembly mounts the same component, asks the API who is
// signed in (GET /api/v1/me, with the session cookies) and shows either
// the signed-out view with its Sign in link or the page.
//
// The API is reached through shared/client, whose transport in the
// browser is window.fetch, never net/http, which would add 5 MB to the
// wasm.
package dashboard
