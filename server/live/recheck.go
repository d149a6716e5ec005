package live

import (
	"context"
	"time"
)

// recheckLoop checks the credentials of the open subscriptions every
// Recheck until the hub closes, so that a revoked token or session, or
// a removed member, loses its streams on every instance.
func (h *Hub) recheckLoop(ctx context.Context) {
	t := time.NewTicker(h.recheck())
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
			h.recheckAll(ctx)
		}
	}
}

// recheckAll runs each credential's check once and ends the
// subscriptions of those that no longer hold.
func (h *Hub) recheckAll(ctx context.Context) {
	byKey := map[string][]*Sub{}
	h.mu.Lock()
	for _, f := range h.feeds {
		f.mu.Lock()
		for s := range f.subs {
			if s.cred.Check != nil {
				byKey[s.cred.Key] = append(byKey[s.cred.Key], s)
			}
		}
		f.mu.Unlock()
	}
	h.mu.Unlock()
	for key, subs := range byKey {
		cctx, cancel := context.WithTimeout(ctx, h.recheck())
		ok, err := subs[0].cred.Check(cctx)
		cancel()
		if err != nil {
			h.Log.Warn("live: check credentials", "key", key, "err", err)
			continue
		}
		if !ok {
			for _, s := range subs {
				s.kick(StatusPolicyViolation, "the credentials were revoked")
			}
		}
	}
}
