package feedback

import (
	"net/url"
	"strings"
	"time"
)

// WebhookSubscription asks the service to POST events of the named kinds
// to URL. The signing secret is never returned; SecretPrefix is its
// leading part, so a client can tell which secret is in use.
type WebhookSubscription struct {
	ID           string   `json:"id"`
	URL          string   `json:"url"`
	Events       []string `json:"events"`
	SecretPrefix string   `json:"secret_prefix"`
	CreatedAt    Time     `json:"created_at"`
	UpdatedAt    Time     `json:"updated_at"`
	// DisabledAt is set when deliveries stopped: the receiver answered 410
	// Gone, the retry schedule ran out, or the subscription was disabled
	// through the API; DisabledReason says which.
	DisabledAt     *Time  `json:"disabled_at"`
	DisabledReason string `json:"disabled_reason"`
}

// WebhookUpdate is the body of PATCH /webhooks/{id}. A nil field is left
// unchanged. Setting Secret rotates the signing secret: the previous one
// keeps signing alongside it for [SecretOverlap]. Enabled true re-enables
// a disabled subscription (from then on; missed events are not replayed).
type WebhookUpdate struct {
	URL     *string   `json:"url"`
	Events  *[]string `json:"events"`
	Secret  *string   `json:"secret"`
	Enabled *bool     `json:"enabled"`
}

// SecretOverlap is how long a rotated-out secret keeps signing deliveries
// alongside the new one, so receivers can switch without losing any.
const SecretOverlap = 24 * time.Hour

// Validate cleans and checks the update.
func (in *WebhookUpdate) Validate(allowHTTP func(host string) bool) error {
	var v Validator
	if in.URL != nil {
		*in.URL = strings.TrimSpace(*in.URL)
		validateWebhookURL(&v, *in.URL, allowHTTP)
	}
	if in.Events != nil {
		*in.Events = validateEventNames(&v, *in.Events)
	}
	if in.Secret != nil {
		v.Check(ValidSecret(*in.Secret), "secret", "must be whsec_ followed by base64 of 24 to 64 bytes")
	}
	v.Check(in.URL != nil || in.Events != nil || in.Secret != nil || in.Enabled != nil, "body",
		"must change at least one of url, events, secret, enabled")
	return v.Err()
}

// WebhookInput is the body of POST /webhooks. Secret is optional: a client
// that wants to know the secret supplies its own whsec_ value.
type WebhookInput struct {
	URL    string   `json:"url"`
	Events []string `json:"events"`
	Secret string   `json:"secret,omitempty"`
}

// Webhook secret format: "whsec_" followed by base64 of 24 to 64 random bytes.
const (
	SecretPrefix       = "whsec_"
	SecretPrefixLength = 12
	MaxWebhookURL      = 2048
)

// AllEvents subscribes to every event kind.
const AllEvents = "*"

// Validate cleans and checks the input. allowHTTP reports whether a plain
// http URL may be used for host (the server's allow-list decides).
func (in *WebhookInput) Validate(allowHTTP func(host string) bool) error {
	var v Validator
	in.URL = strings.TrimSpace(in.URL)
	validateWebhookURL(&v, in.URL, allowHTTP)
	in.Events = validateEventNames(&v, in.Events)
	if in.Secret != "" {
		v.Check(ValidSecret(in.Secret), "secret", "must be whsec_ followed by base64 of 24 to 64 bytes")
	}
	return v.Err()
}

func validateWebhookURL(v *Validator, raw string, allowHTTP func(string) bool) {
	u, err := url.Parse(raw)
	switch {
	case raw == "":
		v.Add("url", "is required")
	case len(raw) > MaxWebhookURL:
		v.Add("url", "must be at most 2048 characters")
	case err != nil || !u.IsAbs() || u.Host == "" || u.Opaque != "":
		v.Add("url", "must be an absolute http or https URL")
	case u.User != nil:
		v.Add("url", "must not contain user information")
	case u.Fragment != "":
		v.Add("url", "must not contain a fragment")
	case u.Scheme == "https":
	case u.Scheme == "http" && allowHTTP != nil && allowHTTP(u.Hostname()):
	case u.Scheme == "http":
		v.Add("url", "must use https (http only for hosts on the server's allow-list)")
	default:
		v.Add("url", "must use https")
	}
}

func validateEventNames(v *Validator, names []string) []string {
	if !v.Check(len(names) > 0, "events", `must name at least one event kind, or "*"`) {
		return names
	}
	var unknown []string
	seen := map[string]bool{}
	out := []string{}
	for _, n := range names {
		if n != AllEvents && !KnownEvent(n) {
			unknown = append(unknown, n)
			continue
		}
		if !seen[n] {
			out = append(out, n)
		}
		seen[n] = true
	}
	if len(unknown) > 0 {
		v.Add("events", "holds unknown event kinds: "+strings.Join(unknown, ", "))
	}
	if seen[AllEvents] {
		return []string{AllEvents}
	}
	return out
}

// ValidSecret reports whether s is a well-formed whsec_ signing secret.
func ValidSecret(s string) bool {
	b64, ok := strings.CutPrefix(s, SecretPrefix)
	if !ok {
		return false
	}
	n, err := decodedLen(b64)
	return err == nil && n >= 24 && n <= 64
}
