// Package samlfed signs people in to the embedded OpenID provider
// (server/idp) through their organisation's SAML 2.0 IdP: a federation of
// kind idp.KindSAML, given by the IdP's metadata (its entity ID, its
// single sign-on service and its signing certificates), which the
// federator reads when the federation is added (idp.Preparer), from the
// XML or, once, from an https URL.
//
// The provider is then the IdP's service provider: its entity ID and
// metadata are at "/saml/metadata" under the issuer's path
// ([MetadataURL]), its assertion consumer service at "/saml/acs"
// ([ACSURL], HTTP-POST binding). [New] gives it an idp.Federator that
// sends an AuthnRequest (HTTP-Redirect binding) with a RelayState bound
// to the sign-in (a hash with the request's ID, for 10 minutes and one
// use) and to the browser (an HttpOnly cookie of the ACS's path,
// SameSite=None over https, as the IdP posts from its own site; the ACS
// is outside the cross-origin protection of the pages). It verifies the
// response with github.com/russellhaering/gosaml2: the signature against
// the metadata's certificates, issuer, destination, InResponseTo,
// audience and validity (2 minutes' skew). Each accepted assertion's ID
// is kept until it expires, so that an assertion counts once. The email
// comes from an emailAddress NameID or a mail/email attribute; an
// AuthnContextClassRef of a second factor (e.g. TimeSyncToken) is
// reported as amr "mfa", which counts when the federation is trusted for
// MFA. The provider (idp.Host) checks the address's domain and completes
// the sign-in.
//
// Not supported: encrypted assertions, IdP-initiated sign-on, signed
// AuthnRequests, refreshing metadata fetched from a URL.
//
// The package knows the provider only through idp.Host, and the provider
// knows it only as an idp.Federator.
package samlfed
