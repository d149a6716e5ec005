package idp

import (
	"context"
	"crypto/rand"
	"crypto/subtle"
	"encoding/base64"
	"errors"
	"fmt"
	"strings"
	"sync"
	"unicode/utf8"

	"golang.org/x/crypto/argon2"
)

// Password policy.
const (
	minPasswordRunes = 12
	maxPasswordBytes = 1024
)

// argon2Params are the parameters of argon2id.
type argon2Params struct {
	memory  uint32 // KiB
	time    uint32
	threads uint8
}

// defaultHashParams are RFC 9106's second recommended option, for
// memory-constrained settings: 64 MiB, 3 passes, 4 lanes. A hash records
// its own parameters, so that verifying follows a change.
var defaultHashParams = argon2Params{memory: 64 * 1024, time: 3, threads: 4}

// hashParams are the parameters of new hashes: tests make them cheap.
var hashParams = defaultHashParams

const (
	saltLen = 16
	keyLen  = 32
)

// maxHashing bounds the hashes computed at once, and with them memory
// (64 MiB each): a burst of sign-ins queues instead.
const maxHashing = 4

var hashing = make(chan struct{}, maxHashing)

// derive computes argon2id in one of the maxHashing slots.
func derive(ctx context.Context, password string, salt []byte, p argon2Params) ([]byte, error) {
	select {
	case hashing <- struct{}{}:
	case <-ctx.Done():
		return nil, ctx.Err()
	}
	defer func() { <-hashing }()
	return argon2.IDKey([]byte(password), salt, p.time, p.memory, p.threads, keyLen), nil
}

// hashPassword returns the PHC string of password:
// $argon2id$v=19$m=65536,t=3,p=4$salt$hash, base64 without padding.
func hashPassword(ctx context.Context, password string) (string, error) {
	return hashWith(ctx, password, hashParams)
}

// hashWith is hashPassword with parameters p.
func hashWith(ctx context.Context, password string, p argon2Params) (string, error) {
	salt := make([]byte, saltLen)
	_, _ = rand.Read(salt) // never fails (Go >= 1.24)
	key, err := derive(ctx, password, salt, p)
	if err != nil {
		return "", err
	}
	b64 := base64.RawStdEncoding
	return fmt.Sprintf("$argon2id$v=%d$m=%d,t=%d,p=%d$%s$%s", argon2.Version, p.memory, p.time, p.threads,
		b64.EncodeToString(salt), b64.EncodeToString(key)), nil
}

// verifyPassword reports whether password matches the PHC string encoded.
func verifyPassword(ctx context.Context, encoded, password string) (bool, error) {
	p, salt, want, err := parsePHC(encoded)
	if err != nil {
		return false, err
	}
	got, err := derive(ctx, password, salt, p)
	return err == nil && subtle.ConstantTimeCompare(got, want) == 1, err
}

var errPHC = errors.New("idp: not an argon2id PHC string")

func parsePHC(s string) (p argon2Params, salt, key []byte, err error) {
	f := strings.Split(s, "$")
	var v int
	if len(f) != 6 || f[1] != "argon2id" {
		return p, nil, nil, errPHC
	}
	if _, err := fmt.Sscanf(f[2], "v=%d", &v); err != nil || v != argon2.Version {
		return p, nil, nil, errPHC
	}
	if _, err := fmt.Sscanf(f[3], "m=%d,t=%d,p=%d", &p.memory, &p.time, &p.threads); err != nil {
		return p, nil, nil, errPHC
	}
	salt, err1 := base64.RawStdEncoding.DecodeString(f[4])
	key, err2 := base64.RawStdEncoding.DecodeString(f[5])
	if err1 != nil || err2 != nil || len(key) != keyLen {
		return p, nil, nil, errPHC
	}
	return p, salt, key, nil
}

// dummyHash is what a sign-in with an unknown email is checked against,
// so that it takes as long as one with a known email.
var dummyHash = sync.OnceValue(func() string {
	h, _ := hashPassword(context.Background(), "no account has this password")
	return h
})

// passwordProblem returns why the policy refuses password for the
// account of email, or "".
func passwordProblem(email, password string) string {
	switch {
	case utf8.RuneCountInString(password) < minPasswordRunes:
		return fmt.Sprintf("The password must have at least %d characters.", minPasswordRunes)
	case len(password) > maxPasswordBytes:
		return fmt.Sprintf("The password must have at most %d bytes.", maxPasswordBytes)
	case strings.EqualFold(strings.TrimSpace(password), email):
		return "The password must not be your email address."
	}
	return ""
}
