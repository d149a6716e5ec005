// Package auth signs admins in to the dashboard: an OpenID Connect
// relying party (authorization code with PKCE S256, state and nonce,
// through go-oidc and x/oauth2) and server-side sessions held in two
// cookies, an access cookie valid one hour and a refresh cookie valid
// thirty days, both opaque random values stored only as hashes.
package auth
