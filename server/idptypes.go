package server

import "time"

// IdPAccount is an account of the embedded OpenID provider.
type IdPAccount struct {
	ID    string // a UUID: the sub claim
	Email string // trimmed, lower case
	// PasswordHash is the argon2id PHC string, "" until a password is set.
	PasswordHash string `json:"-"`
	// TOTPSecret is the sealed TOTP secret, nil without TOTP.
	TOTPSecret []byte `json:"-"`
}

// IdPEnrolment is a TOTP enrolment that a spent set-password link
// started: the ticket that continues it (by hash) and the secret it
// offers, until it expires.
type IdPEnrolment struct {
	TicketHash []byte `json:"-"`
	AccountID  string
	Email      string // the account's, when read
	Secret     []byte `json:"-"` // sealed
	ExpiresAt  time.Time
}

// IdPAuthRequest is a sign-in in progress: an authorization request from
// the redirect to the login page until its code is spent.
type IdPAuthRequest struct {
	ID, ClientID, RedirectURI, State, Nonce string
	Scopes                                  []string
	ResponseType, ResponseMode              string
	CodeChallenge, CodeChallengeMethod      string
	// AccountID is set by the password step (or a federated sign-in).
	AccountID string
	// PasswordAt is when the password step passed; AuthTime when the
	// sign-in was complete, with the methods AMR.
	PasswordAt, AuthTime *time.Time
	AMR                  []string
	// MFARequested reports whether the client asked for a second factor.
	MFARequested bool
	ExpiresAt    time.Time
}

// IdPAccessToken is an access token the provider issued.
type IdPAccessToken struct {
	ID, ClientID, AccountID string
	// AuthRequestID is the sign-in the token descends from.
	AuthRequestID string
	// RefreshTokenID is the refresh token it was issued with, if any.
	RefreshTokenID string
	Scopes         []string
	ExpiresAt      time.Time
}

// IdPRefreshToken is a refresh token the provider issued, stored by the
// hash of its value.
type IdPRefreshToken struct {
	ID                  string
	Hash                []byte `json:"-"`
	ClientID, AccountID string
	AuthRequestID       string // the sign-in it descends from
	Scopes, AMR         []string
	AuthTime, ExpiresAt time.Time
}

// IdPSigningKey is a key that signs ID tokens; each rotation adds the
// next generation.
type IdPSigningKey struct {
	Generation int
	KID        string // RFC 7638 thumbprint
	Algorithm  string
	PublicKey  []byte // PKIX DER
	PrivateKey []byte `json:"-"` // PKCS #8 DER, sealed; nil in lists
	CreatedAt  time.Time
}

// Throttle is a throttle key's count of failed attempts: the key is
// locked until LockedUntil (nil: not locked), and its count starts again
// once QuietAfter has passed without a failure.
type Throttle struct {
	Failures      int
	LastFailureAt time.Time
	LockedUntil   *time.Time
	QuietAfter    time.Time
}

// IdPRefund takes one attempt back from a throttle key: one failure
// fewer and, when the key is still locked until Lock (the lock the
// attempt set; zero: none), no lock and a count quiet after QuietAfter.
// With Forget the key's row is deleted instead.
type IdPRefund struct {
	Key        string
	Lock       time.Time
	QuietAfter time.Time
	Forget     bool
}

// IdPFederation is an organisation's identity provider, which signs in
// the addresses of its email domains.
type IdPFederation struct {
	ID   string // a UUID
	Name string
	// Kind is "oidc" (an OpenID provider) or "saml" (a SAML 2.0 IdP).
	Kind string
	// Issuer is the OpenID provider's issuer URL, or the IdP's entity ID.
	Issuer string
	// ClientID and ClientSecret (sealed) are the provider's registration
	// at an OpenID provider.
	ClientID     string
	ClientSecret []byte `json:"-"`
	// TrustUpstreamMFA counts a second factor the upstream reports.
	TrustUpstreamMFA bool
	// SAMLMetadata is a SAML IdP's metadata XML.
	SAMLMetadata string
	// Domains are the email domains it signs in, in lower case.
	Domains   []string
	CreatedAt time.Time
}

// IdPFederationState is a sign-in sent to a federation's OpenID provider,
// stored by the hash of its state until its callback.
type IdPFederationState struct {
	StateHash     []byte `json:"-"`
	AuthRequestID string
	FederationID  string
	Nonce         string
	Verifier      []byte `json:"-"` // the PKCE code verifier, sealed
	ExpiresAt     time.Time
}

// IdPSAMLRequest is a sign-in sent to a federation's SAML IdP, stored by
// the hash of its RelayState until the IdP's response.
type IdPSAMLRequest struct {
	RelayHash     []byte `json:"-"`
	AuthRequestID string
	FederationID  string
	RequestID     string // the AuthnRequest's ID: the response's InResponseTo
	ExpiresAt     time.Time
}
