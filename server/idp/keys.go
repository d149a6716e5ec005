package idp

import (
	"context"
	"crypto"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/x509"
	"encoding/base64"
	"errors"
	"fmt"
	"sync"
	"time"

	jose "github.com/go-jose/go-jose/v4"
	"github.com/zitadel/oidc/v3/pkg/op"

	"github.com/feedbackhq/feedback/server"
	"github.com/feedbackhq/feedback/shared/feedback"
)

// keyRecheck is how long an instance signs with the key it read before
// it reads the newest again, to pick up another instance's rotation.
const keyRecheck = time.Minute

// signingKey is an ES256 key: op.SigningKey, with its private half.
type signingKey struct {
	generation int
	kid        string
	private    *ecdsa.PrivateKey
	createdAt  time.Time
}

var _ op.SigningKey = (*signingKey)(nil)

func (k *signingKey) SignatureAlgorithm() jose.SignatureAlgorithm { return jose.ES256 }
func (k *signingKey) Key() any                                    { return k.private }
func (k *signingKey) ID() string                                  { return k.kid }

// publicKey is a key of the JWKS: op.Key.
type publicKey struct {
	kid string
	key *ecdsa.PublicKey
}

var _ op.Key = publicKey{}

func (k publicKey) ID() string                         { return k.kid }
func (k publicKey) Algorithm() jose.SignatureAlgorithm { return jose.ES256 }
func (k publicKey) Use() string                        { return "sig" }
func (k publicKey) Key() any                           { return k.key }

// keyAAD binds a sealed private key to its kid.
func keyAAD(kid string) []byte { return []byte("idp:signing-key:" + kid) }

// due reports whether k has signed long enough.
func due(k *signingKey, now time.Time) bool { return !now.Before(k.createdAt.Add(keyRotateAfter)) }

// keyStore keeps the signing keys in the database and the current one in
// memory.
type keyStore struct {
	p *Provider

	mu      sync.Mutex
	cur     *signingKey
	checked time.Time // when cur was read
}

// current returns the key to sign with: the newest, unless it is due for
// rotation, in which case it makes the next one.
func (ks *keyStore) current(ctx context.Context) (_ *signingKey, err error) {
	defer wrap(&err, "signing key")
	now := ks.p.now()
	ks.mu.Lock()
	defer ks.mu.Unlock()
	if ks.cur != nil && now.Sub(ks.checked) < keyRecheck && !due(ks.cur, now) {
		return ks.cur, nil
	}
	k, err := ks.newest(ctx)
	if err != nil && !errors.Is(err, errNotFound) {
		return nil, err
	}
	if k == nil || due(k, now) {
		if k, err = ks.rotate(ctx, k, now); err != nil {
			return nil, err
		}
	}
	ks.cur, ks.checked = k, now
	return k, nil
}

// newest reads the newest key, or errNotFound.
func (ks *keyStore) newest(ctx context.Context) (*signingKey, error) {
	row, err := ks.p.cfg.Store.NewestIdPSigningKey(ctx)
	if err != nil {
		return nil, orNotFound(err)
	}
	k := &signingKey{generation: row.Generation, kid: row.KID, createdAt: row.CreatedAt}
	der, err := ks.p.cfg.Keys.Open(row.PrivateKey, keyAAD(k.kid))
	if err != nil {
		return nil, err
	}
	priv, err := x509.ParsePKCS8PrivateKey(der)
	if k.private, _ = priv.(*ecdsa.PrivateKey); err == nil && k.private == nil {
		err = fmt.Errorf("key %s is a %T", k.kid, priv)
	}
	return k, err
}

// rotate makes the key that follows prev (nil: the first). When another
// instance made it first, it returns that one.
func (ks *keyStore) rotate(ctx context.Context, prev *signingKey, now time.Time) (*signingKey, error) {
	k, pub, err := newSigningKey(now)
	if err != nil {
		return nil, err
	}
	if prev != nil {
		k.generation = prev.generation + 1
	}
	der, err := x509.MarshalPKCS8PrivateKey(k.private)
	if err != nil {
		return nil, err
	}
	err = ks.p.cfg.Store.CreateIdPSigningKey(ctx, &server.IdPSigningKey{Generation: k.generation, KID: k.kid,
		Algorithm: string(jose.ES256), PublicKey: pub, PrivateKey: ks.p.cfg.Keys.Seal(der, keyAAD(k.kid)), CreatedAt: now})
	if feedback.ErrorCode(err) == feedback.EConflict {
		return ks.newest(ctx)
	}
	if err == nil {
		ks.p.log.InfoContext(ctx, "idp: new signing key", "kid", k.kid, "generation", k.generation)
	}
	return k, err
}

// newSigningKey generates a first-generation key and its public half in
// PKIX DER.
func newSigningKey(now time.Time) (*signingKey, []byte, error) {
	priv, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return nil, nil, err
	}
	pub, err := x509.MarshalPKIXPublicKey(&priv.PublicKey)
	if err != nil {
		return nil, nil, err
	}
	tp, err := (&jose.JSONWebKey{Key: &priv.PublicKey}).Thumbprint(crypto.SHA256)
	if err != nil {
		return nil, nil, err
	}
	k := &signingKey{generation: 1, kid: base64.RawURLEncoding.EncodeToString(tp), private: priv, createdAt: now}
	return k, pub, nil
}

// publicKeys returns the keys of the JWKS, newest first: the current one,
// and each older one until its successor is keyPublishFor old. It
// rotates first when the current key is due, so that a new key is
// published as soon as it exists.
func (ks *keyStore) publicKeys(ctx context.Context) (_ []op.Key, err error) {
	if _, err := ks.current(ctx); err != nil {
		return nil, err
	}
	defer wrap(&err, "public keys")
	rows, err := ks.p.cfg.Store.IdPSigningKeys(ctx)
	if err != nil {
		return nil, err
	}
	var keys []op.Key
	now := ks.p.now()
	for i, row := range rows {
		if i > 0 && !now.Before(rows[i-1].CreatedAt.Add(keyPublishFor)) {
			break // retired for good, and so are the older ones
		}
		k := publicKey{kid: row.KID}
		if k.key, err = parsePublic(row.PublicKey); err != nil {
			return nil, err
		}
		keys = append(keys, k)
	}
	return keys, nil
}

func parsePublic(der []byte) (*ecdsa.PublicKey, error) {
	pub, err := x509.ParsePKIXPublicKey(der)
	if err != nil {
		return nil, err
	}
	k, ok := pub.(*ecdsa.PublicKey)
	if !ok {
		return nil, fmt.Errorf("a %T is no ES256 key", pub)
	}
	return k, nil
}
