package idp

import (
	"crypto/rand"
	"encoding/base64"

	"github.com/zitadel/oidc/v3/pkg/op"

	"github.com/feedbackhq/feedback/server/secret"
)

// opaqueAAD binds the values op seals (authorization codes: the request
// id; access tokens: token id and subject) to this use of the keyring.
var opaqueAAD = []byte("idp:opaque")

// sealer is op's Crypto on the service keyring: every instance, which
// shares the keyring, opens what any other sealed, and the keyring's
// rotation applies.
type sealer struct{ keys *secret.Keyring }

var _ op.Crypto = sealer{}

// Encrypt seals s and encodes it in base64url.
func (c sealer) Encrypt(s string) (string, error) {
	return base64.RawURLEncoding.EncodeToString(c.keys.Seal([]byte(s), opaqueAAD)), nil
}

// Decrypt opens a value made by Encrypt.
func (c sealer) Decrypt(s string) (string, error) {
	b, err := base64.RawURLEncoding.DecodeString(s)
	if err != nil {
		return "", err
	}
	plain, err := c.keys.Open(b, opaqueAAD)
	return string(plain), err
}

// newID returns a random identifier of 128 bits, URL-safe.
func newID() string {
	b := make([]byte, 16)
	_, _ = rand.Read(b) // never fails (Go >= 1.24)
	return base64.RawURLEncoding.EncodeToString(b)
}
