package server

import (
	"time"

	"github.com/feedbackhq/feedback/shared/feedback"
)

// Workspace is a tenant with its sealed poster-signing key. Fields that
// must never leave the server are tagged json:"-" here and below, so even
// an accidental encoding of a server record leaks nothing.
type Workspace struct {
	feedback.Workspace
	// PosterKey is the per-workspace HMAC key for poster codes, sealed
	// with the server keyring.
	PosterKey []byte `json:"-"`
}

// Token is an API token as stored: only the SHA-256 hash of its value.
type Token struct {
	ID          string
	WorkspaceID string
	Name        string
	Prefix      string // the first characters of the value, for recognising it
	Hash        []byte `json:"-"`
	CreatedAt   time.Time
	LastUsedAt  *time.Time
	RevokedAt   *time.Time
}

// Poster is a poster with the workspace that owns it. Code and URL of the
// embedded wire type are left empty by stores; the HTTP layer signs them.
type Poster struct {
	WorkspaceID string `json:"-"`
	feedback.Poster
}

// Webhook is a subscription with its sealed signing secret.
type Webhook struct {
	WorkspaceID string `json:"-"`
	feedback.WebhookSubscription
	Secret []byte `json:"-"` // sealed with the server keyring
	// PreviousSecret is the rotated-out secret (sealed), which signs
	// alongside Secret until PreviousSecretUntil.
	PreviousSecret      []byte     `json:"-"`
	PreviousSecretUntil *time.Time `json:"-"`
}

// WebhookChange is an update of a subscription as the store applies it:
// nil fields stay. A non-nil Secret (sealed) rotates: the current secret
// becomes the previous one, signing until now + feedback.SecretOverlap.
type WebhookChange struct {
	URL          *string
	Events       *[]string
	Secret       []byte
	SecretPrefix string
	Enabled      *bool
}

// Delivery is a delivery leased to a worker, with what sending it needs:
// the event envelope as it is signed and sent (the same bytes on every
// attempt), the subscription's URL and its sealed secrets.
type Delivery struct {
	WorkspaceID string
	feedback.WebhookDelivery
	Payload        []byte
	URL            string
	Secret         []byte // sealed
	PreviousSecret []byte // sealed; nil when none signs any more
	LeaseUntil     time.Time
	// ScheduleBase is the number of attempts made before the latest
	// redelivery: the retry schedule counts the attempts after it.
	ScheduleBase int
}

// Outcome is what a worker decided after an attempt.
type Outcome struct {
	// Status is DeliverySucceeded, DeliveryPending (retry at NextAttempt)
	// or DeliveryFailed (given up).
	Status      feedback.DeliveryStatus
	NextAttempt time.Time
	// Disable stops the subscription, with Reason as its disabled_reason,
	// and writes a webhook.disabled event in the same transaction.
	Disable bool
	Reason  string
}

// Claim bounds what one claim of due deliveries takes.
type Claim struct {
	// Lease is how long the claimed deliveries stay the worker's.
	Lease time.Duration
	// Limit is the most deliveries the claim takes.
	Limit int
	// PerWebhook is the most deliveries of one subscription that may be
	// leased at once, counting those that any worker holds already; zero
	// means no cap.
	PerWebhook int
	// Skip lists subscriptions (webhook ids) whose deliveries the claim
	// leaves, for example because their destination host is busy.
	Skip []string
	// Refill reads only the oldest due deliveries, a window of four
	// times Limit, for a claim that refills the room that finished
	// attempts freed. Without it the claim reads on past the
	// subscriptions at their cap, so that a subscription's backlog never
	// hides another's delivery, which costs a read of that backlog.
	Refill bool
}

// Finished is an attempt of a leased delivery and what follows it.
type Finished struct {
	Delivery *Delivery
	Attempt  feedback.DeliveryAttempt
	Outcome  Outcome
}

// Kiosk is a paired kiosk with the hash of its device credential.
type Kiosk struct {
	WorkspaceID string `json:"-"`
	feedback.Kiosk
	CredentialHash []byte `json:"-"`
}

// PairingCode is a pending kiosk pairing, stored by the hash of its code.
type PairingCode struct {
	WorkspaceID string
	Hash        []byte `json:"-"`
	feedback.PairingCodeInput
	ExpiresAt time.Time
	CreatedAt time.Time
}

// Quota is the outcome of one rate-limited request.
type Quota struct {
	Allowed   bool
	Limit     int
	Remaining int
	Reset     time.Time // when the current window ends
}

// User is a person who signs in to the dashboard through OpenID
// Connect, known by issuer and subject.
type User struct {
	ID            string
	Issuer        string
	Subject       string
	Email         string
	Name          string
	PlatformOwner bool
	CreatedAt     time.Time
	LastSignInAt  time.Time
}

// Session is a dashboard session: the hashes of its access and refresh
// cookies with their ends, and what the Active sessions page shows.
type Session struct {
	ID               string
	UserID           string
	AccessHash       []byte
	AccessExpiresAt  time.Time
	RefreshHash      []byte
	RefreshExpiresAt time.Time
	RotatedAt        time.Time
	AMR              []string
	IP               string
	UserAgent        string
	ProviderToken    []byte     // the identity provider's refresh token, sealed; nil when none
	ProviderIDToken  []byte     // the identity provider's latest ID token, sealed; nil when none
	RenewingAt       *time.Time // when a renewal was claimed (AuthStore.ClaimRenewal) and not yet done
	CreatedAt        time.Time
	LastSeenAt       time.Time
	RevokedAt        *time.Time
	RevokedReason    string
}

// Rotation is the new access and refresh values of a session, and the
// identity provider's new tokens, sealed, when it issued some (nil keeps
// the session's).
type Rotation struct {
	AccessHash      []byte
	AccessExpiresAt time.Time
	RefreshHash     []byte
	ProviderToken   []byte
	ProviderIDToken []byte
}
