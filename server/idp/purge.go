package idp

import (
	"context"
	"time"
)

// purgeEvery is how often an instance deletes expired rows, at most.
const purgeEvery = 10 * time.Minute

// purges delete what has expired: rows older than $1, which is now minus
// before.
var purges = []struct {
	sql    string
	before time.Duration
}{
	{`DELETE FROM idp_auth_requests WHERE expires_at <= $1`, 0},
	{`DELETE FROM idp_access_tokens WHERE expires_at <= $1`, 0},
	{`DELETE FROM idp_refresh_tokens WHERE expires_at <= $1`, 0},
	{`DELETE FROM idp_password_links WHERE expires_at <= $1 AND (enrol_expires_at IS NULL OR enrol_expires_at <= $1)`, 0},
	{`DELETE FROM idp_throttle WHERE quiet_after <= $1`, 0},
	{`DELETE FROM idp_federation_states WHERE expires_at <= $1`, 0},
	{`DELETE FROM idp_saml_requests WHERE expires_at <= $1`, 0},
	{`DELETE FROM idp_saml_assertions WHERE expires_at <= $1`, 0},
	// A key leaves the JWKS keyPublishFor after its successor started.
	{`DELETE FROM idp_signing_keys WHERE generation IN (SELECT o.generation FROM idp_signing_keys o
		JOIN idp_signing_keys n ON n.generation = o.generation + 1 WHERE n.created_at <= $1)`, keyPublishFor},
}

// purgeSometimes purges, unless this instance did less than purgeEvery
// ago. A failure is logged, and the sign-in goes on: it only leaves rows
// that no query reads.
func (p *Provider) purgeSometimes(ctx context.Context) {
	now := p.now()
	last := p.lastPurge.Load()
	if now.UnixMicro()-last < purgeEvery.Microseconds() || !p.lastPurge.CompareAndSwap(last, now.UnixMicro()) {
		return
	}
	if err := p.purge(ctx, now); err != nil {
		p.log.ErrorContext(ctx, "idp: purge", "err", err)
	}
}

// purge deletes the rows that expired before now.
func (p *Provider) purge(ctx context.Context, now time.Time) (err error) {
	defer wrap(&err, "purge")
	for _, q := range purges {
		if _, err := p.cfg.DB.Exec(ctx, q.sql, now.Add(-q.before)); err != nil {
			return err
		}
	}
	return nil
}
