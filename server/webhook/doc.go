// Package webhook delivers events to webhook subscriptions.
//
// Deliveries are signed per Standard Webhooks ([Sign], [Headers]): each
// request carries webhook-id, webhook-timestamp and webhook-signature,
// and during a secret rotation both the new and the previous secret sign.
//
// Destinations are guarded against server-side request forgery twice:
// [Policy.CheckURL] refuses a URL whose host is, or resolves to, a
// private, loopback, link-local or otherwise special address when the
// subscription is created or changed, and the [NewClient] dialer checks
// again the address it actually connects to, which defeats DNS
// rebinding.
package webhook
