// Package idp is the embedded OpenID provider: when no external issuer is
// configured, feedbackd serves its own, so that the dashboard always signs
// in through OpenID Connect.
//
// The protocol is github.com/zitadel/oidc/v3/pkg/op; this package adapts
// op's Storage to [server.IdPStore], the part of the service's store
// contract that keeps the provider's rows (tables idp_*, migration 00006;
// the SQL is in server/sqlstore, and server/storetest checks it on both
// databases), and keeps the protocol's decisions to itself: lifetimes,
// signing keys and their rotation, argon2id and TOTP, the throttling
// policy, and the pages a person sees: the login page (email and
// password, then a one-time code when the account has TOTP, or the
// organisation or the client requires a second factor) and the
// set-password page that [Provider.CreateAccount] links to.
//
// An organisation may sign in through its own identity provider instead:
// a [Federation] (tables idp_federation*, migrations 00007 and 00008)
// names the email domains it serves. The login page offers a "Sign in
// with" button per federation, and sends an email of a federated domain
// there (refusing its password). The protocols live in their own
// packages, each a [Federator] that [Config].Federators adds and that
// knows the provider only as a [Host]: server/idp/oidcfed for an
// organisation's OpenID provider (the provider is its relying party) and
// server/idp/samlfed for a SAML 2.0 IdP (the provider is its service
// provider). The provider finishes every federated sign-in itself: it
// requires an address of the federation's domains, makes the account on
// a first sign-in (without a password), and completes the sign-in with
// amr ["fed"], after the upstream's methods when the federation is
// trusted for MFA: only then can it pass a required second factor.
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
//	/federation/callback                where OpenID federations return (oidcfed)
//	/saml/metadata, /saml/acs           the SAML service provider (samlfed)
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
//     lock. Each attempt is counted as a failure before its password or
//     code is checked, atomically with the check of the lock (one
//     transaction holding the keys' rows), and refunded when the check
//     passes: however many attempts arrive at once, on however many
//     instances, no more checks run than the limits allow. Only a
//     complete sign-in clears an address's count.
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
//   - A federated sign-in's state (or SAML RelayState) is stored as a
//     hash with its sign-in, for 10 minutes and one use, and set in an
//     HttpOnly cookie that only the callback (or ACS) reads, so that it
//     counts only in the browser that started it (see oidcfed and
//     samlfed). Federations' client secrets are sealed with the keyring.
//     An upstream speaks only for its own domains: an address of another
//     domain is refused even when the upstream says it is verified.
//   - The provider keeps no browser session: every authorization shows
//     the login page, prompt=none is refused, and a logout (end_session)
//     revokes the tokens of the one sign-in that its id_token_hint names
//     by the ID token's sid (a hash of the sign-in's id), so that the
//     account's sign-ins on other devices go on.
//   - A client may ask for a second factor with acr_values naming the
//     PAPE multi-factor class, which the discovery document advertises
//     (acr_values_supported): the sign-in then requires one whatever the
//     organisation's setting, and its ID token's acr is that class.
package idp
