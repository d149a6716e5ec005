package server

import (
	"context"
	"time"
)

// IdPStore is what the embedded OpenID provider (server/idp) keeps: its
// accounts and their credentials, the sign-ins in progress and the tokens
// they gave, its signing keys, login throttling, and the organisations'
// federations. [Store] includes it; the provider is given only this.
//
// Unlike the rest of Store, these methods take the provider's time as
// arguments (now, and the ends it computes from its lifetimes): the
// provider owns its clock and its policies, the store keeps the rows.
// Credentials that are handed out (codes, refresh tokens, links,
// enrolment tickets, federation states) are given and matched as SHA-256
// hashes; secrets (TOTP secrets, private keys, client secrets, PKCE
// verifiers) arrive sealed, and the store never opens them. Rows that
// have expired at now or were spent are not found, like rows that never
// existed: feedback.ENotFound. An account id that is not a UUID names
// no account.
type IdPStore interface {
	IdPAccountStore
	IdPSignInStore
	IdPTokenStore
	IdPKeyStore
	IdPThrottleStore
	IdPFederationStore

	// PurgeIdP deletes the rows that expired at or before now: sign-ins,
	// tokens, links whose enrolment has ended too, throttle keys quiet
	// since, federation states, SAML requests and assertions; and each
	// signing key whose successor was created at or before keysBefore.
	PurgeIdP(ctx context.Context, now, keysBefore time.Time) error
	// Ping reports whether the database answers.
	Ping(ctx context.Context) error
}

// IdPAccountStore keeps the provider's accounts, the organisation's
// second-factor switch, set-password links and the TOTP enrolments that
// follow them.
type IdPAccountStore interface {
	// IdPAccount returns an account. Returns feedback.ENotFound.
	IdPAccount(ctx context.Context, id string) (*IdPAccount, error)
	// IdPAccountByEmail returns the account of email, which must be
	// normalised as stored (trimmed, lower case). Returns
	// feedback.ENotFound.
	IdPAccountByEmail(ctx context.Context, email string) (*IdPAccount, error)
	// EnsureIdPAccount returns the id of the account of email, which it
	// creates at now, without password or TOTP, when there is none.
	// Concurrent calls for one email agree on one account.
	EnsureIdPAccount(ctx context.Context, email string, now time.Time) (id string, err error)
	// SetIdPPassword sets an account's password hash and revokes every
	// access and refresh token of the account, in one transaction.
	// Returns feedback.ENotFound.
	SetIdPPassword(ctx context.Context, accountID, passwordHash string, now time.Time) error
	// SetIdPTOTP gives an account the sealed TOTP secret, enrolled at now,
	// whose codes up to time step step count as used. Returns
	// feedback.ENotFound.
	SetIdPTOTP(ctx context.Context, accountID string, secret []byte, step int64, now time.Time) error
	// ChangeIdPPassword sets an account's password hash as SetIdPPassword
	// does, but keeps the account's tokens that descend from the sign-in
	// keep ("" keeps none): every other sign-in's tokens are revoked, in
	// one transaction. Returns feedback.ENotFound.
	ChangeIdPPassword(ctx context.Context, accountID, passwordHash, keep string, now time.Time) error
	// BeginIdPTOTP gives an account the pending TOTP enrolment of the
	// sealed secret, until expires, replacing any other. Returns
	// feedback.ENotFound.
	BeginIdPTOTP(ctx context.Context, accountID string, secret []byte, expires time.Time) error
	// IdPPendingTOTP returns the sealed secret of the account's pending
	// enrolment, unexpired at now. Returns feedback.ENotFound when there
	// is none (or no such account).
	IdPPendingTOTP(ctx context.Context, accountID string, now time.Time) ([]byte, error)
	// FinishIdPTOTP ends the account's pending enrolment, when its secret
	// is still secret and unexpired at now, and makes that secret the
	// account's as SetIdPTOTP does with step, in one statement. Returns
	// feedback.ENotFound when the enrolment ended, expired, was replaced
	// or never was: of concurrent finishes, one wins.
	FinishIdPTOTP(ctx context.Context, accountID string, secret []byte, step int64, now time.Time) error
	// RemoveIdPTOTP takes an account's TOTP secret and pending enrolment
	// away; its used time steps stay used. Returns feedback.ENotFound.
	RemoveIdPTOTP(ctx context.Context, accountID string) error
	// UseIdPTOTPStep records that the account's code of TOTP time step
	// step was used, and reports whether that step is later than every
	// step used before: a code counts once, and concurrent uses of one
	// step have one winner. An unknown account reports false.
	UseIdPTOTPStep(ctx context.Context, accountID string, step int64) (bool, error)
	// SetIdPMFARequired turns the organisation-wide second factor on or off.
	SetIdPMFARequired(ctx context.Context, required bool) error
	// IdPMFARequired reports whether the organisation requires a second
	// factor (false until set).
	IdPMFARequired(ctx context.Context) (bool, error)

	// CreateIdPPasswordLink makes the account of email if there is none
	// (as EnsureIdPAccount) and replaces its unused set-password links by
	// the link whose token hashes to hash, created at now and valid until
	// expires, in one transaction. It returns the account's id.
	CreateIdPPasswordLink(ctx context.Context, email string, hash []byte, now, expires time.Time) (accountID string, err error)
	// IdPPasswordLink returns the account of the link whose token hashes
	// to hash, unused and unexpired at now. Returns feedback.ENotFound.
	IdPPasswordLink(ctx context.Context, hash []byte, now time.Time) (*IdPAccount, error)
	// UseIdPPasswordLink spends that link at now, in one transaction: it
	// sets the password hash of the link's account as SetIdPPassword does
	// and, when e is not nil, starts enrolment e (TicketHash, Secret,
	// ExpiresAt) on the link. Returns feedback.ENotFound when the link is
	// unknown, used or expired: of concurrent uses, one wins.
	UseIdPPasswordLink(ctx context.Context, hash []byte, passwordHash string, e *IdPEnrolment, now time.Time) error
	// IdPEnrolment returns the enrolment whose ticket hashes to hash,
	// unexpired at now, with its account's id and email. Returns
	// feedback.ENotFound.
	IdPEnrolment(ctx context.Context, hash []byte, now time.Time) (*IdPEnrolment, error)
	// FinishIdPEnrolment ends the enrolment whose ticket hashes to hash,
	// unexpired at now, and gives its account the sealed secret as
	// SetIdPTOTP does, in one transaction. Returns feedback.ENotFound when
	// the enrolment ended, expired or never was: of concurrent finishes,
	// one wins.
	FinishIdPEnrolment(ctx context.Context, hash, secret []byte, step int64, now time.Time) error
	// RenewIdPEnrolment moves the enrolment of ticket hash old to ticket
	// hash next; an unknown old changes nothing.
	RenewIdPEnrolment(ctx context.Context, old, next []byte) error
}

// IdPSignInStore keeps the sign-ins in progress (authorization requests)
// and their codes. A sign-in's row outlives the exchange of its code
// until it expires, so that a code presented twice can revoke what it
// gave.
type IdPSignInStore interface {
	// CreateIdPAuthRequest stores a (complete or not as given; AccountID,
	// PasswordAt and AuthTime are left empty), created at now, until
	// a.ExpiresAt. Returns feedback.EConflict if its id is taken.
	CreateIdPAuthRequest(ctx context.Context, a *IdPAuthRequest, now time.Time) error
	// IdPAuthRequest returns the sign-in id, unexpired at now. Returns
	// feedback.ENotFound.
	IdPAuthRequest(ctx context.Context, id string, now time.Time) (*IdPAuthRequest, error)
	// RecordIdPPassword records that the password of accountID was right
	// for sign-in id at now, which then awaits a second factor. Returns
	// feedback.ENotFound when the sign-in is unknown, complete or expired.
	RecordIdPPassword(ctx context.Context, id, accountID string, now time.Time) error
	// CompleteIdPAuthRequest records that sign-in id authenticated
	// accountID at now with the methods amr. With afterPassword it does so
	// only when RecordIdPPassword recorded the same account's password
	// first. Returns feedback.ENotFound when the sign-in is unknown,
	// complete, expired, or (afterPassword) not past its password step:
	// of concurrent completions, one wins.
	CompleteIdPAuthRequest(ctx context.Context, id, accountID string, amr []string, afterPassword bool, now time.Time) error
	// SaveIdPCode gives the complete sign-in id the code whose value
	// hashes to hash, valid until codeExpires; the sign-in then lasts
	// until expires. A sign-in gets one code. Returns feedback.ENotFound
	// when the sign-in is unknown, not complete, expired at now, or has
	// its code already.
	SaveIdPCode(ctx context.Context, id string, hash []byte, codeExpires, expires, now time.Time) error
	// SpendIdPCode marks the code whose value hashes to hash used at now
	// and returns its sign-in: once. Returns feedback.ENotFound when the
	// code is unknown, expired or used: of concurrent spends, one wins.
	SpendIdPCode(ctx context.Context, hash []byte, now time.Time) (*IdPAuthRequest, error)
	// RevokeIdPCodeGrant revokes every token issued for the sign-in whose
	// code, used already, hashes to hash: the code was presented twice.
	// Returns feedback.ENotFound when no used code hashes to hash.
	RevokeIdPCodeGrant(ctx context.Context, hash []byte) error
}

// IdPTokenStore keeps the access and refresh tokens the provider issued.
// Access tokens are stored by id (their bearer value is sealed, not
// stored), refresh tokens by the hash of their value.
type IdPTokenStore interface {
	// CreateIdPAccessToken stores t, created at now. Returns
	// feedback.ENotFound when its account does not exist.
	CreateIdPAccessToken(ctx context.Context, t *IdPAccessToken, now time.Time) error
	// CreateIdPTokens stores the refresh token r and the access token t
	// issued with it (t.RefreshTokenID is r.ID), created at now, in one
	// transaction. With spend, the hash of the refresh token they
	// replace, it first deletes that token, live at now, and the access
	// tokens issued with it; when it is not live (unknown, expired, or
	// spent by a concurrent rotation, which wins) it stores nothing and
	// returns feedback.ENotFound; so it does when the account does not
	// exist.
	CreateIdPTokens(ctx context.Context, spend []byte, r *IdPRefreshToken, t *IdPAccessToken, now time.Time) error
	// IdPAccessToken returns the access token id, live at now. Returns
	// feedback.ENotFound.
	IdPAccessToken(ctx context.Context, id string, now time.Time) (*IdPAccessToken, error)
	// IdPRefreshToken returns the refresh token whose value hashes to
	// hash, expired or not (compare ExpiresAt). Returns
	// feedback.ENotFound.
	IdPRefreshToken(ctx context.Context, hash []byte) (*IdPRefreshToken, error)
	// RevokeIdPToken deletes the client's access token id or, when there
	// is none, its refresh token id with the access tokens issued with
	// it, in one transaction. An unknown id, or another client's, changes
	// nothing and is no error.
	RevokeIdPToken(ctx context.Context, id, clientID string) error
	// IdPSignIns returns the ids of the sign-ins that the account's live
	// or expired tokens at the client descend from, each once.
	IdPSignIns(ctx context.Context, accountID, clientID string) ([]string, error)
	// RevokeIdPSignIn deletes the account's tokens at the client that
	// descend from the sign-in authRequestID, in one transaction.
	RevokeIdPSignIn(ctx context.Context, authRequestID, accountID, clientID string) error
}

// IdPKeyStore keeps the keys that sign ID tokens, by generation.
type IdPKeyStore interface {
	// NewestIdPSigningKey returns the key of the highest generation.
	// Returns feedback.ENotFound when there is none.
	NewestIdPSigningKey(ctx context.Context) (*IdPSigningKey, error)
	// CreateIdPSigningKey stores k. Returns feedback.EConflict when its
	// generation or kid exists: another instance rotated first.
	CreateIdPSigningKey(ctx context.Context, k *IdPSigningKey) error
	// IdPSigningKeys returns every key, the highest generation first,
	// without their private keys.
	IdPSigningKeys(ctx context.Context) ([]IdPSigningKey, error)
}

// IdPThrottleStore counts failed sign-in attempts per key (an address
// typed, a client's address). How an attempt counts, and when a key is
// locked, is the caller's policy, given as a [CountAttempt].
type IdPThrottleStore interface {
	// ReserveIdPAttempt counts one attempt against every key, in one
	// transaction: for each key in the order given it holds the key's
	// row from its read to its update (PostgreSQL locks it until the
	// transaction ends; SQLite has a single writer), passes the row to
	// count and stores what count returns. So reservations, on any
	// instance, are counted one after the other, each seeing what the
	// one before stored: when count refuses a key after limit attempts,
	// exactly limit of any number of concurrent reservations on it
	// succeed. A key without a row starts as
	// Throttle{LastFailureAt: now, QuietAfter: now}. When count refuses
	// any key, the other keys are still passed to count, nothing is
	// stored, and feedback.ERateLimited is returned. Callers that give
	// keys in the same order never wait for each other.
	ReserveIdPAttempt(ctx context.Context, keys []string, now time.Time, count CountAttempt) error
	// RefundIdPAttempt applies the refunds in one transaction. A key
	// without a row is left alone.
	RefundIdPAttempt(ctx context.Context, refunds []IdPRefund) error
}

// CountAttempt is how one more attempt counts against a throttle key:
// given the key's row as stored, it returns the row to store, or false
// when the key refuses attempts now (it is locked).
type CountAttempt func(key string, t Throttle) (next Throttle, ok bool)

// IdPFederationStore keeps the organisations' identity providers
// (federations), their email domains, and the sign-ins in progress at
// them.
type IdPFederationStore interface {
	// CreateIdPFederation stores f with its domains, created at
	// f.CreatedAt, in one transaction, with a new UUIDv7 id (of
	// f.CreatedAt) unless f.ID is set. Returns feedback.EConflict when a
	// domain belongs to another federation (or the id is taken), and
	// feedback.EValidation when f.ID is set but not a UUID.
	CreateIdPFederation(ctx context.Context, f *IdPFederation) error
	// IdPFederations returns every federation, oldest first, each with
	// its domains in order.
	IdPFederations(ctx context.Context) ([]IdPFederation, error)
	// IdPFederation returns a federation. Returns feedback.ENotFound.
	IdPFederation(ctx context.Context, id string) (*IdPFederation, error)
	// IdPFederationByDomain returns the federation that signs in the
	// addresses of domain. Returns feedback.ENotFound.
	IdPFederationByDomain(ctx context.Context, domain string) (*IdPFederation, error)
	// DeleteIdPFederation deletes a federation with its domains, its
	// sign-ins in progress and its assertions. Returns feedback.ENotFound.
	DeleteIdPFederation(ctx context.Context, id string) error

	// CreateIdPFederationState stores s, created at now, until
	// s.ExpiresAt. Returns feedback.ENotFound when its sign-in or
	// federation does not exist.
	CreateIdPFederationState(ctx context.Context, s *IdPFederationState, now time.Time) error
	// TakeIdPFederationState deletes the state whose value hashes to hash,
	// unexpired at now, and returns it: once. Returns feedback.ENotFound.
	TakeIdPFederationState(ctx context.Context, hash []byte, now time.Time) (*IdPFederationState, error)
	// CreateIdPSAMLRequest stores r, created at now, until r.ExpiresAt.
	// Returns feedback.ENotFound when its sign-in or federation does not
	// exist.
	CreateIdPSAMLRequest(ctx context.Context, r *IdPSAMLRequest, now time.Time) error
	// TakeIdPSAMLRequest deletes the request whose RelayState hashes to
	// hash, unexpired at now, and returns it: once. Returns
	// feedback.ENotFound.
	TakeIdPSAMLRequest(ctx context.Context, hash []byte, now time.Time) (*IdPSAMLRequest, error)
	// AddIdPSAMLAssertion records the ID of an assertion of a federation,
	// kept until expires. Returns feedback.EConflict when it was recorded
	// already (a replay), and feedback.ENotFound when the federation does
	// not exist.
	AddIdPSAMLAssertion(ctx context.Context, federationID, assertionID string, expires time.Time) error
}
