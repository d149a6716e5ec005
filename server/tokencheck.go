package server

import "context"

// TokenCheck is the read of an API token that a request put off, so
// that a store may send it together with the request's first query, in
// one round trip (see [TokenLimiter.TakeKnownToken]). A request that
// carries one must not answer before the check is settled: the API
// settles it itself, before its first byte, if no store did. It belongs
// to the request's goroutine.
type TokenCheck struct {
	// Hash is the token's hash, as api_tokens keeps it.
	Hash []byte

	settled bool
	token   *Token
	err     error
}

// Settle records the outcome of the token's read: the token, revoked or
// not, or the read's error (feedback.ENotFound for no token). The first
// outcome stands.
func (c *TokenCheck) Settle(t *Token, err error) {
	if c.settled {
		return
	}
	c.settled, c.token, c.err = true, t, err
}

// Settled reports whether the token was read.
func (c *TokenCheck) Settled() bool { return c.settled }

// Result returns what Settle recorded.
func (c *TokenCheck) Result() (*Token, error) { return c.token, c.err }

type tokenCheckKey struct{}

// WithTokenCheck returns ctx carrying c.
func WithTokenCheck(ctx context.Context, c *TokenCheck) context.Context {
	return context.WithValue(ctx, tokenCheckKey{}, c)
}

// PendingTokenCheck returns the unsettled token check of ctx, or nil.
func PendingTokenCheck(ctx context.Context) *TokenCheck {
	if c, ok := ctx.Value(tokenCheckKey{}).(*TokenCheck); ok && !c.settled {
		return c
	}
	return nil
}
