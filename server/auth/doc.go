// Package auth signs admins in to the dashboard: an OpenID Connect
// relying party (authorization code with PKCE S256, state and nonce,
// through go-oidc and x/oauth2) and server-side sessions held in two
// cookies, an access cookie valid one hour and a refresh cookie valid
// thirty days, both opaque random values stored only as hashes. Each
// hourly renewal refreshes the provider's refresh token too, and a
// session whose provider refuses it ends; sign-out ends the provider's
// browser session through its end_session_endpoint.
package auth
