package secret

import (
	"crypto/aes"
	"crypto/cipher"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// KeySize is the length of a keyring key in bytes (AES-256).
const KeySize = 32

// sealVersion is the first byte of every sealed value.
const sealVersion = 1

// Keyring seals and opens secrets at rest. The first key seals; every key
// opens, so keys can be rotated by prepending a new one and re-sealing.
type Keyring struct {
	keys []ringKey
}

type ringKey struct {
	id     [4]byte // first bytes of SHA-256(key): names the key in sealed values
	aead   cipher.AEAD
	derive []byte // HMAC key for Derive: SHA-256("derive" || key)
}

// ParseKeyring builds a keyring from a comma-separated list of base64
// (standard or URL alphabet) 32-byte keys, the current one first.
func ParseKeyring(list string) (*Keyring, error) {
	kr := &Keyring{}
	for i, s := range strings.Split(list, ",") {
		raw, err := decodeKey(strings.TrimSpace(s))
		if err != nil {
			return nil, fmt.Errorf("secret key %d: %w", i+1, err)
		}
		kr.add(raw)
	}
	return kr, nil
}

func decodeKey(s string) ([]byte, error) {
	for _, enc := range []*base64.Encoding{base64.StdEncoding, base64.URLEncoding, base64.RawStdEncoding, base64.RawURLEncoding} {
		if b, err := enc.DecodeString(s); err == nil {
			if len(b) != KeySize {
				return nil, fmt.Errorf("must decode to %d bytes, got %d", KeySize, len(b))
			}
			return b, nil
		}
	}
	return nil, errors.New("must be base64")
}

func (kr *Keyring) add(raw []byte) {
	block, _ := aes.NewCipher(raw) // the length is checked by the callers
	aead, _ := cipher.NewGCM(block)
	sum := sha256.Sum256(raw)
	var k ringKey
	copy(k.id[:], sum[:4])
	k.aead = aead
	d := sha256.Sum256(append([]byte("derive"), raw...))
	k.derive = d[:]
	kr.keys = append(kr.keys, k)
}

// Derive returns a 32-byte value for label from the current key: the
// same on every instance that shares the keyring, and unrelated to the
// key itself (HMAC-SHA256 under a hash of it).
func (kr *Keyring) Derive(label string) []byte {
	m := hmac.New(sha256.New, kr.keys[0].derive)
	m.Write([]byte(label))
	return m.Sum(nil)
}

// NewKey returns a new random key in the base64 form ParseKeyring reads.
func NewKey() string {
	return base64.StdEncoding.EncodeToString(randomBytes(KeySize))
}

// LoadOrCreateKeyFile reads the keyring from path, creating the file with a
// new key (mode 0600) when it does not exist. The embedded SQLite default
// uses it so that `feedbackd` works with no configuration.
func LoadOrCreateKeyFile(path string) (*Keyring, error) {
	b, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) {
		if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
			return nil, err
		}
		b = []byte(NewKey() + "\n")
		if err := os.WriteFile(path, b, 0o600); err != nil {
			return nil, err
		}
	} else if err != nil {
		return nil, err
	}
	return ParseKeyring(strings.TrimSpace(string(b)))
}

// Seal encrypts plaintext under the current key. aad binds the value to
// its context (for example the row it belongs to); Open needs the same aad.
func (kr *Keyring) Seal(plaintext, aad []byte) []byte {
	k := kr.keys[0]
	nonce := randomBytes(k.aead.NonceSize())
	out := append([]byte{sealVersion}, k.id[:]...)
	out = append(out, nonce...)
	return k.aead.Seal(out, nonce, plaintext, aad)
}

// ErrUnsealable reports a sealed value that no key of the keyring opens.
var ErrUnsealable = errors.New("secret: sealed value cannot be opened with the configured keys")

// Open decrypts a value made by Seal with any key of the keyring.
func (kr *Keyring) Open(sealed, aad []byte) ([]byte, error) {
	if len(sealed) < 5 || sealed[0] != sealVersion {
		return nil, ErrUnsealable
	}
	for _, k := range kr.keys {
		if string(k.id[:]) != string(sealed[1:5]) {
			continue
		}
		n := k.aead.NonceSize()
		if len(sealed) < 5+n {
			return nil, ErrUnsealable
		}
		pt, err := k.aead.Open(nil, sealed[5:5+n], sealed[5+n:], aad)
		if err != nil {
			return nil, ErrUnsealable
		}
		return pt, nil
	}
	return nil, ErrUnsealable
}

func randomBytes(n int) []byte {
	b := make([]byte, n)
	_, _ = rand.Read(b) // crypto/rand.Read never returns an error (Go >= 1.24)
	return b
}
