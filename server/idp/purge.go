package idp

import (
	"context"
	"time"
)

// purgeEvery is how often an instance deletes expired rows, at most.
const purgeEvery = 10 * time.Minute

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

// purge deletes the rows that expired before now, and the signing keys
// whose successor started keyPublishFor ago.
func (p *Provider) purge(ctx context.Context, now time.Time) (err error) {
	defer wrap(&err, "purge")
	return p.cfg.Store.PurgeIdP(ctx, now, now.Add(-keyPublishFor))
}
