// Package oidcfed signs people in to the embedded OpenID provider
// (server/idp) through their organisation's own OpenID provider: a
// federation of kind idp.KindOIDC, which names the upstream's issuer, the
// provider's client registration there, and the email domains it serves.
//
// The provider is then a relying party of the upstream: [New] gives it an
// idp.Federator that starts the authorization code flow (PKCE S256, state
// and nonce; the typed address as login_hint) and serves the callback,
// "GET /federation/callback" under the issuer's path ([RedirectURI], to
// register upstream). The callback checks the state against the browser
// (an HttpOnly cookie of the callback's path) and the store (a hash with
// the sign-in, the PKCE verifier sealed, for 10 minutes and one use),
// redeems the code, verifies the ID token (signature, issuer, audience,
// expiry, nonce), asks userinfo for the address when the token has none,
// refuses an address said to be unverified, and hands the identity to
// the provider (idp.Host), which checks its domain and completes the
// sign-in.
//
// The package knows the provider only through idp.Host, and the provider
// knows it only as an idp.Federator.
package oidcfed
