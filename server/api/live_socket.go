package api

import (
	"context"
	"log/slog"
	"sync"
	"sync/atomic"
	"time"

	"github.com/coder/websocket"

	"github.com/feedbackhq/feedback/server/live"
)

// Keepalive and write bounds of a live socket.
const (
	livePing      = 30 * time.Second // a ping every 30 s keeps proxies from closing an idle socket
	liveWriteWait = 10 * time.Second // a write (or pong) that takes longer ends the socket
)

// socket streams one subscription on one WebSocket. While it is idle it
// holds no goroutine but the reader that answers the client's pings and
// closes (CloseRead): a writer goroutine runs only while there is
// something to send — events, a ping, the close — so that thousands of
// idle dashboards cost little memory.
type socket struct {
	c    *websocket.Conn
	sub  *live.Sub
	log  *slog.Logger
	ctx  context.Context // ends when the client goes
	busy atomic.Bool     // a writer runs (or the replay does)
	ping atomic.Bool     // a ping is due
	tick *time.Timer
	end  sync.Once
}

// openSocket returns the socket of c and sub; start begins it.
func openSocket(c *websocket.Conn, sub *live.Sub, log *slog.Logger) *socket {
	k := &socket{c: c, sub: sub, log: log}
	k.ctx = c.CloseRead(context.Background())
	return k
}

// start sends the replay and live.ready, then leaves the socket to its
// wake-ups: the subscription's, the ping timer's and the client's going.
func (k *socket) start(after *int64) {
	k.busy.Store(true) // no writer before the replay is done
	k.tick = time.AfterFunc(livePing, func() {
		k.ping.Store(true)
		k.wake()
	})
	k.sub.OnWake(k.wake)
	context.AfterFunc(k.ctx, k.finish)
	if err := k.sub.Start(k.ctx, after, k.send); err != nil {
		k.log.Debug("live: start", "err", err)
		_ = k.c.Close(websocket.StatusInternalError, "the stream could not start; resume with after=")
		k.finish()
		return
	}
	k.busy.Store(false)
	k.wake()
}

// wake starts a writer unless one runs; it never blocks, and it takes
// no lock: the subscription calls it holding its feed's.
func (k *socket) wake() {
	if k.busy.CompareAndSwap(false, true) {
		go k.write()
	}
}

// pending reports whether a writer has something to do.
func (k *socket) pending() bool {
	select {
	case <-k.sub.Done():
		return true
	default:
	}
	return k.ping.Load() || k.sub.Pending()
}

// write sends what is queued, the due ping, or the close, and ends when
// nothing is left; a wake-up that came meanwhile is not lost, as it
// checks again after it let go.
func (k *socket) write() {
	for {
		if !k.flush() {
			k.finish()
			return
		}
		k.busy.Store(false)
		if !k.pending() || !k.busy.CompareAndSwap(false, true) {
			return
		}
	}
}

// flush sends the queued events and a due ping, or closes the socket
// when the subscription ended; it reports whether the socket goes on.
func (k *socket) flush() bool {
	select {
	case <-k.sub.Done():
		code, reason := k.sub.Reason()
		_ = k.c.Close(websocket.StatusCode(code), reason)
		return false
	default:
	}
	for _, b := range k.sub.Take() {
		if k.send(b) != nil {
			return false
		}
	}
	if k.ping.Swap(false) {
		ctx, cancel := context.WithTimeout(k.ctx, liveWriteWait)
		defer cancel()
		if k.c.Ping(ctx) != nil {
			return false
		}
		k.tick.Reset(livePing)
	}
	return true
}

// send writes one message, within liveWriteWait.
func (k *socket) send(b []byte) error {
	ctx, cancel := context.WithTimeout(k.ctx, liveWriteWait)
	defer cancel()
	return k.c.Write(ctx, websocket.MessageText, b)
}

// finish ends the socket once: the subscription leaves and the
// connection closes (after a close frame, if one was sent).
func (k *socket) finish() {
	k.end.Do(func() {
		k.tick.Stop()
		k.sub.Leave()
		_ = k.c.CloseNow()
	})
}
