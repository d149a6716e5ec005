package secret

import (
	"crypto/sha256"
	"strings"
)

// Credential prefixes. The prefix tells a leaked value's kind at a glance
// and lets secret scanners find it.
const (
	APITokenPrefix   = "fbk_"  // API tokens
	KioskTokenPrefix = "fbkk_" // kiosk device credentials
	InvitePrefix     = "fbi_"  // invitation links to a workspace
)

// tokenChars is the length of the random part of a credential.
const tokenChars = 40

const base62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"

// NewToken returns a new credential with prefix (40 random base62
// characters, about 238 bits) and its hash, the only thing to store.
func NewToken(prefix string) (value string, hash []byte) {
	var b strings.Builder
	b.WriteString(prefix)
	for b.Len() < len(prefix)+tokenChars {
		for _, c := range randomBytes(tokenChars) {
			if c < 248 && b.Len() < len(prefix)+tokenChars { // 248 = 4*62: no modulo bias
				b.WriteByte(base62[c%62])
			}
		}
	}
	value = b.String()
	return value, Hash(value)
}

// Hash returns the SHA-256 of a credential or code. Credentials carry
// enough entropy that a fast hash is the right one (as GitHub does).
func Hash(value string) []byte {
	h := sha256.Sum256([]byte(value))
	return h[:]
}

// ValidToken reports whether value has the shape of a credential with
// prefix, so malformed values are refused without a database lookup.
func ValidToken(prefix, value string) bool {
	rest, ok := strings.CutPrefix(value, prefix)
	if !ok || len(rest) != tokenChars {
		return false
	}
	for i := 0; i < len(rest); i++ {
		if strings.IndexByte(base62, rest[i]) < 0 {
			return false
		}
	}
	return true
}

// DisplayPrefix returns the part of a credential that may be shown in
// lists: the prefix and four characters.
func DisplayPrefix(prefix, value string) string {
	return value[:len(prefix)+4]
}
