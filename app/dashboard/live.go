package dashboard

import (
	"encoding/json"
	"strconv"
	"time"

	"github.com/feedbackhq/feedback/shared/feedback"
)

// The live stream (GET /api/v1/live) is read by a [liveClient]; what each
// frame and each lost connection means is decided here, in plain Go, by
// a liveMachine: the position to resume from, the backoff, and which
// frames are news.

// liveState is what the page says about the live stream.
type liveState int

const (
	liveConnecting liveState = iota // the first connection is under way
	liveOn                          // the stream is live
	liveRetrying                    // the connection was lost; it is tried again after a delay
	liveOffline                     // the browser is offline; it is tried again once it is online
	liveEnded                       // the session ended: no more connections
)

// Close codes of the live stream (live-protocol.md).
const (
	closePolicy    = 1008 // the credentials were revoked or the member removed: do not reconnect
	closeGoingAway = 1001 // the server shuts down: resume elsewhere
	closeTryLater  = 1013 // the client fell behind: resume
	closeUnknown   = -1   // the browser did not say (coder/websocket's wasm Read; a failed dial)
)

// The reconnection delay is drawn uniformly from [0, min(backoffCap,
// backoffBase·2^attempt)) ("full jitter"), so that the dashboards of an
// instance that went away do not all come back at the same moment.
const (
	backoffBase = time.Second
	backoffCap  = 30 * time.Second
)

// liveAction is what a frame asks of the page.
type liveAction int

const (
	liveIgnore liveAction = iota // nothing: a repeated event, an unknown control message
	liveEvent                    // an event to show
	liveReady                    // the stream is live; reload the view when fresh
	liveReset                    // reload the view from the REST API
)

// liveFrame is one frame decoded.
type liveFrame struct {
	action liveAction
	event  feedback.Event // for liveEvent
	fresh  bool           // for liveReady: the stream started without a position, so the view must be loaded
}

// liveMachine follows one live stream across its connections.
type liveMachine struct {
	seq        int64 // the largest seq seen
	positioned bool  // seq is a position the stream can resume after
	attempt    int   // failed connections since the stream was last live
	state      liveState
	// rand returns a number in [0, n); tests fix it.
	rand func(n int64) int64
}

// query returns the stream's query parameter for the next connection:
// after= the largest seq seen, or nothing for a stream that starts at the
// current position.
func (m *liveMachine) query() string {
	if !m.positioned {
		return ""
	}
	return "after=" + strconv.FormatInt(m.seq, 10)
}

// frame decodes one frame and moves the position. An event at or before
// the position is a repeat and is ignored; live.ready and live.reset set
// the position.
func (m *liveMachine) frame(b []byte) (liveFrame, error) {
	var ev feedback.Event
	if err := json.Unmarshal(b, &ev); err != nil {
		return liveFrame{}, err
	}
	switch ev.Type {
	case feedback.LiveReady:
		fresh := !m.positioned
		m.seq, m.positioned = max(m.seq, ev.Seq), true
		m.attempt, m.state = 0, liveOn
		return liveFrame{action: liveReady, fresh: fresh}, nil
	case feedback.LiveReset:
		// The stream goes on from ev.Seq, which may be below a
		// position that was ahead of the stream.
		m.seq, m.positioned = ev.Seq, true
		return liveFrame{action: liveReset}, nil
	}
	if len(ev.Type) > 5 && ev.Type[:5] == "live." {
		return liveFrame{}, nil // a control message of a later protocol
	}
	if m.positioned && ev.Seq <= m.seq {
		return liveFrame{}, nil
	}
	m.seq = max(m.seq, ev.Seq)
	return liveFrame{action: liveEvent, event: ev}, nil
}

// closed records that a connection ended with code (closeUnknown when
// the browser did not say, or the connection never opened) and returns
// how long to wait before the next one; retry is false after a policy
// violation, which ends the stream.
func (m *liveMachine) closed(code int) (delay time.Duration, retry bool) {
	if code == closePolicy {
		m.state = liveEnded
		return 0, false
	}
	m.state = liveRetrying
	return m.backoff(), true
}

// backoff returns the next delay and counts the attempt.
func (m *liveMachine) backoff() time.Duration {
	ceiling := backoffCap
	if m.attempt < 5 { // 2^5 s > 30 s
		ceiling = min(backoffCap, backoffBase<<m.attempt)
	}
	m.attempt++
	return time.Duration(m.rand(int64(ceiling)))
}

// end records that the session is over: nothing reconnects.
func (m *liveMachine) end() { m.state = liveEnded }

// offline records that the browser went offline; online that it is back,
// when the next connection is tried at once.
func (m *liveMachine) offline() { m.state = liveOffline }

func (m *liveMachine) online() { m.attempt = 0 }
