// Package secret holds the service's cryptography: the keyring that seals
// secrets at rest (AES-256-GCM), random bearer credentials stored only as
// SHA-256 hashes, kiosk pairing codes, webhook signing secrets, and the
// HMAC-signed codes printed on posters.
package secret
