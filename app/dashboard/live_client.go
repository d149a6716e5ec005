package dashboard

import (
	"context"
	"net/url"
	"strings"
	"sync"
	"time"

	"github.com/coder/websocket"
)

// liveClient keeps one live stream open for the overview: it connects,
// hands every frame that is news to emit, and after a lost connection
// waits (backoff with full jitter) and resumes after the last seq seen.
// It stops when its context ends or the session does. Everything but the
// socket is a function, so that the tests drive it natively against a
// WebSocket server of their own.
type liveClient struct {
	m liveMachine
	// url returns the stream's URL for a query ("" or "after=N").
	url func(query string) string
	// dial opens a connection.
	dial func(ctx context.Context, url string) (liveConn, error)
	// ended is asked after a policy close or a close the browser did not
	// explain: it returns why the session is over (see endSignedOut), or
	// "" when it is not, or when that cannot be told.
	ended func(ctx context.Context) string
	// online reports whether the browser is online; changed signals
	// that it may have changed.
	online  func() bool
	changed *signal
	// emit receives the updates, in order, on the client's goroutine.
	emit func(liveUpdate)
}

// Why a stream ended, as liveClient.ended says.
const (
	endSignedOut = "signed-out" // the session was revoked or expired
	endNoAccess  = "no-access"  // the user is no longer a member of the workspace
)

// liveUpdate is what the page learns from the client: a new state, and
// a frame to apply when there is one.
type liveUpdate struct {
	state   liveState
	frame   *liveFrame
	retryIn time.Duration // for liveRetrying
	ended   string        // for liveEnded: endSignedOut or endNoAccess
}

// liveConn is one open connection.
type liveConn interface {
	// Read returns the next frame, or the error that ended the
	// connection (see closeCode).
	Read(ctx context.Context) ([]byte, error)
	Close()
}

// dialTimeout bounds one connection attempt.
const dialTimeout = 15 * time.Second

// maxFrame bounds one frame: an event with the longest comment and
// answers fits many times over.
const maxFrame = 1 << 20

// run keeps the stream until ctx ends or the session does.
func (c *liveClient) run(ctx context.Context) {
	for ctx.Err() == nil {
		if !c.online() {
			c.m.offline()
			c.emit(liveUpdate{state: liveOffline})
			if !c.waitOnline(ctx) {
				return
			}
			c.m.online()
		}
		code := c.connect(ctx)
		if ctx.Err() != nil {
			return
		}
		if code == closePolicy || code == closeUnknown {
			why := c.ended(ctx)
			if why == "" && code == closePolicy {
				why = endSignedOut
			}
			if why != "" {
				c.m.end()
				c.emit(liveUpdate{state: liveEnded, ended: why})
				return
			}
		}
		delay, _ := c.m.closed(code)
		c.emit(liveUpdate{state: liveRetrying, retryIn: delay})
		c.sleep(ctx, delay)
	}
}

// connect opens one connection and reads it until it ends, and returns
// its close code (closeUnknown when it never opened, when the browser
// did not say, or when the browser went offline).
func (c *liveClient) connect(ctx context.Context) int {
	dctx, cancel := context.WithTimeout(ctx, dialTimeout)
	conn, err := c.dial(dctx, c.url(c.m.query()))
	cancel()
	if err != nil {
		return closeUnknown
	}
	defer conn.Close()
	rctx, stop := context.WithCancel(ctx)
	defer stop()
	go c.dropWhenOffline(rctx, stop)
	for {
		b, err := conn.Read(rctx)
		if err != nil {
			return closeCode(err)
		}
		f, err := c.m.frame(b)
		if err != nil || f.action == liveIgnore {
			continue
		}
		c.emit(liveUpdate{state: c.m.state, frame: &f})
	}
}

// dropWhenOffline ends the connection when the browser goes offline: a
// socket over a dead link can take minutes to notice.
func (c *liveClient) dropWhenOffline(ctx context.Context, drop func()) {
	for {
		select {
		case <-ctx.Done():
			return
		case <-c.changed.wait():
			if !c.online() {
				drop()
				return
			}
		}
	}
}

// waitOnline waits until the browser is online, and reports whether it
// is (false when ctx ended first).
func (c *liveClient) waitOnline(ctx context.Context) bool {
	for !c.online() {
		select {
		case <-ctx.Done():
			return false
		case <-c.changed.wait():
		}
	}
	return true
}

// sleep waits for d, less when the browser comes back online (the
// network is back: try at once), or until ctx ends.
func (c *liveClient) sleep(ctx context.Context, d time.Duration) {
	t := time.NewTimer(d)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
			return
		case <-c.changed.wait():
			if c.online() {
				c.m.online()
				return
			}
		}
	}
}

// signal wakes every goroutine waiting on it at the time it is notified.
type signal struct {
	mu sync.Mutex
	ch chan struct{}
}

func newSignal() *signal { return &signal{ch: make(chan struct{})} }

// wait returns a channel closed by the next notify.
func (s *signal) wait() <-chan struct{} {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.ch
}

// notify wakes the waiters.
func (s *signal) notify() {
	s.mu.Lock()
	defer s.mu.Unlock()
	close(s.ch)
	s.ch = make(chan struct{})
}

// wsConn is a coder/websocket connection.
type wsConn struct{ c *websocket.Conn }

// dialLive opens a connection with coder/websocket: the browser's
// WebSocket in the wasm, which sends the session cookies and the page's
// Origin.
func dialLive(ctx context.Context, u string) (liveConn, error) {
	c, _, err := websocket.Dial(ctx, u, nil)
	if err != nil {
		return nil, err
	}
	c.SetReadLimit(maxFrame)
	return wsConn{c}, nil
}

func (w wsConn) Read(ctx context.Context) ([]byte, error) {
	_, b, err := w.c.Read(ctx)
	return b, err
}

func (w wsConn) Close() { _ = w.c.Close(websocket.StatusNormalClosure, "") }

// closeCode returns the close code of the error that ended a connection,
// or closeUnknown. In the wasm it is always closeUnknown: coder/websocket
// v1.8.15's Read returns net.ErrClosed there, whatever the code
// (coder/websocket#505), so the client asks the API whether the session
// still holds instead.
func closeCode(err error) int {
	if s := websocket.CloseStatus(err); s != -1 {
		return int(s)
	}
	return closeUnknown
}

// liveURL returns the URL of the live stream of the workspace slug on
// the origin base (http or https, as the page's location says), with
// the query ("" or "after=N").
func liveURL(base, slug, query string) string {
	u := strings.Replace(strings.Replace(base, "https://", "wss://", 1), "http://", "ws://", 1)
	u += "/api/v1/live?workspace=" + url.QueryEscape(slug)
	if query != "" {
		u += "&" + query
	}
	return u
}
