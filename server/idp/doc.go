// Package idp is the embedded OpenID provider: when no external issuer is
// configured, feedbackd serves its own, so that the dashboard always signs
// in through OpenID Connect.
//
// The protocol is github.com/zitadel/oidc/v3/pkg/op; this package gives it
// storage in the service's database (tables idp_*, migration 00006) and
// the pages a person sees: the login page (email and password, then a
// one-time code when the account has TOTP or the organisation requires a
// second factor) and the set-password page that [Provider.CreateAccount]
// links to.
//
// What it serves, under the issuer's path:
//
//	/.well-known/openid-configuration   discovery
//	/authorize, /authorize/callback     authorization code flow (PKCE S256 required)
//	/oauth/token                        code and refresh_token grants
//	/userinfo, /oauth/introspect        about an access token
//	/revoke                             RFC 7009
//	/end_session                        RP-initiated logout
//	/keys                               the JWKS
//	/login, /password, /signed-out      the pages
//
// Security choices:
//
//   - Passwords are hashed with argon2id, RFC 9106's second recommended
//     option (64 MiB, 3 passes, 4 lanes: about 0.2 s on one of our 2-CPU
//     machines), in PHC string format; at most 4 hashes run at once,
//     which bounds memory to 256 MiB. An unknown email costs the same.
//   - Accounts may enrol TOTP (RFC 6238, 6 digits, 30 s); the secret is
//     sealed with the keyring, and each time step is accepted once.
//   - Failed sign-ins (wrong password or code) are counted per typed
//     email address and per client address (the peer's: see
//     [Provider.Handler]) in the database, so the limits hold across
//     instances: 5 failures per email address or 20 per client lock it
//     for 15 minutes, then twice as long at each further failure (at most
//     a day); the count starts again 15 minutes after the last failure or
//     lock. Only a complete sign-in clears an address's count.
//   - ID tokens are signed with ES256 keys generated on first start,
//     sealed in the database and rotated after 30 days; a retired key
//     stays in the JWKS for 7 more days.
//   - Codes are single-use and live 5 minutes; a code presented twice
//     revokes the tokens it was exchanged for (RFC 6749 §4.1.2). Refresh
//     tokens rotate at each use. Codes, refresh tokens and links are
//     stored as SHA-256 hashes; the bearer values of access tokens and
//     codes are sealed with the keyring, so every instance opens them.
//   - The pages post only to themselves, under [net/http.CrossOriginProtection],
//     put no request text in attributes, and are never cached or framed.
//   - The provider keeps no browser session: every authorization shows
//     the login page, prompt=none is refused, and a logout (end_session)
//     revokes the account's tokens at the client.
package idp
