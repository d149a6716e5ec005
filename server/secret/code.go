package secret

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"regexp"
	"strings"

	"github.com/feedbackhq/feedback/shared/feedback"
)

// PosterCode layout: base64url (no padding) of the poster's 16-byte UUID
// followed by the first 16 bytes of HMAC-SHA256(key, "poster:" + uuid).
// 43 characters; the MAC makes codes unforgeable without the key.
const (
	posterCodeLen = 43
	posterMACLen  = 16
)

// PosterCodePattern matches every well-formed poster code, anchored, so a
// route can refuse anything else before it reaches a page or a query.
var PosterCodePattern = regexp.MustCompile(`^[A-Za-z0-9_-]{43}$`)

// NewPosterKey returns a new random per-workspace poster signing key.
func NewPosterKey() []byte { return randomBytes(KeySize) }

// SignPoster returns the code for posterID under the workspace key.
func SignPoster(key []byte, posterID string) string {
	id, ok := feedback.UUIDBytes(posterID)
	if !ok {
		return ""
	}
	b := append(id[:], posterMAC(key, id)...)
	return base64.RawURLEncoding.EncodeToString(b)
}

// ParsePosterCode splits a code into the poster id it names and its MAC.
// It reports false for anything malformed; the MAC is checked by
// VerifyPoster once the poster's workspace key is known.
func ParsePosterCode(code string) (posterID string, mac []byte, ok bool) {
	if len(code) != posterCodeLen || !PosterCodePattern.MatchString(code) {
		return "", nil, false
	}
	b, err := base64.RawURLEncoding.Strict().DecodeString(code)
	if err != nil || len(b) != 16+posterMACLen {
		return "", nil, false
	}
	var id [16]byte
	copy(id[:], b[:16])
	return feedback.UUIDString(id), b[16:], true
}

// VerifyPoster reports whether mac signs posterID under key, in constant time.
func VerifyPoster(key []byte, posterID string, mac []byte) bool {
	id, ok := feedback.UUIDBytes(posterID)
	return ok && hmac.Equal(mac, posterMAC(key, id))
}

func posterMAC(key []byte, id [16]byte) []byte {
	m := hmac.New(sha256.New, key)
	m.Write([]byte("poster:"))
	m.Write(id[:])
	return m.Sum(nil)[:posterMACLen]
}

// pairingAlphabet is Crockford's base32: no I, L, O or U, so a code read
// off a screen is typed without ambiguity.
const pairingAlphabet = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"

// NewPairingCode returns a kiosk pairing code such as "7KQ2-M9XD" (40 bits)
// and the hash of its normalised form.
func NewPairingCode() (code string, hash []byte) {
	b := randomBytes(8)
	var s strings.Builder
	for i, c := range b {
		if i == 4 {
			s.WriteByte('-')
		}
		s.WriteByte(pairingAlphabet[c&31])
	}
	code = s.String()
	return code, Hash(NormalizePairingCode(code))
}

// NormalizePairingCode upper-cases a typed code, drops spaces and dashes,
// and maps the look-alikes O, I and L to 0, 1 and 1.
func NormalizePairingCode(s string) string {
	r := strings.NewReplacer("-", "", " ", "", "O", "0", "I", "1", "L", "1")
	return r.Replace(strings.ToUpper(strings.TrimSpace(s)))
}

// NewWebhookSecret returns a new Standard Webhooks signing secret:
// "whsec_" followed by base64 of 32 random bytes.
func NewWebhookSecret() string {
	return feedback.SecretPrefix + base64.StdEncoding.EncodeToString(randomBytes(32))
}

// NewPassword returns a random password of 20 base62 characters (119
// bits), for generated accounts such as the demo's.
func NewPassword() string {
	value, _ := NewToken("")
	return value[:20]
}
