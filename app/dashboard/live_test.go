package dashboard

import (
	"testing"
	"time"
)

// frames feeds the machine one frame each and returns the actions.
func frames(t *testing.T, m *liveMachine, fs ...string) []liveFrame {
	t.Helper()
	var out []liveFrame
	for _, f := range fs {
		got, err := m.frame([]byte(f))
		if err != nil {
			t.Fatalf("frame(%s): %v", f, err)
		}
		out = append(out, got)
	}
	return out
}

func TestLiveMachinePosition(t *testing.T) {
	m := &liveMachine{}
	if q := m.query(); q != "" {
		t.Errorf("a new stream asks %q; want no position", q)
	}
	got := frames(t, m,
		`{"type":"live.ready","seq":10}`,
		`{"id":"e12","type":"hygiene_submission.created","seq":12,"data":{}}`,
		`{"id":"e12","type":"hygiene_submission.created","seq":12,"data":{}}`, // a repeat
		`{"id":"e11","type":"hygiene_submission.created","seq":11,"data":{}}`, // behind the position
		`{"type":"live.later","seq":99}`,                                      // a control message it does not know
		`{"id":"e15","type":"kiosk.online","seq":15,"data":{}}`,
	)
	want := []liveAction{liveReady, liveEvent, liveIgnore, liveIgnore, liveIgnore, liveEvent}
	for i, f := range got {
		if f.action != want[i] {
			t.Errorf("frame %d: action %d, want %d", i, f.action, want[i])
		}
	}
	if !got[0].fresh || got[1].event.ID != "e12" || got[5].event.Seq != 15 {
		t.Errorf("frames = %+v", got)
	}
	if q := m.query(); q != "after=15" {
		t.Errorf("query after the events = %q, want after=15", q)
	}

	// A resumed stream's ready is not fresh and never moves the
	// position back.
	got = frames(t, m, `{"type":"live.ready","seq":13}`)
	if got[0].action != liveReady || got[0].fresh || m.query() != "after=15" {
		t.Errorf("ready on resume: %+v, query %q; want not fresh, after=15", got[0], m.query())
	}

	// A reset goes on from its seq, even below the position (a position
	// ahead of the stream), and events after it are news again.
	got = frames(t, m, `{"type":"live.reset","seq":7}`, `{"id":"e8","type":"survey_response.created","seq":8,"data":{}}`)
	if got[0].action != liveReset || got[1].action != liveEvent || m.query() != "after=8" {
		t.Errorf("after a reset: %+v, query %q", got, m.query())
	}

	if _, err := m.frame([]byte(`not json`)); err == nil {
		t.Error("a frame that is not JSON was accepted")
	}
}

func TestLiveMachineBackoff(t *testing.T) {
	var asked []time.Duration
	m := &liveMachine{rand: func(n int64) int64 { asked = append(asked, time.Duration(n)); return n - 1 }}
	for range 7 {
		d, retry := m.closed(closeGoingAway)
		if !retry || m.state != liveRetrying {
			t.Fatalf("closed(1001): retry %v, state %d", retry, m.state)
		}
		if d != asked[len(asked)-1]-1 {
			t.Errorf("delay %v is not the drawn one", d)
		}
	}
	want := []time.Duration{time.Second, 2 * time.Second, 4 * time.Second, 8 * time.Second, 16 * time.Second, 30 * time.Second, 30 * time.Second}
	for i := range want {
		if asked[i] != want[i] {
			t.Errorf("attempt %d drew from [0, %v), want [0, %v)", i, asked[i], want[i])
		}
	}

	// Once live again, the next loss starts from the first delay.
	frames(t, m, `{"type":"live.ready","seq":1}`)
	if m.state != liveOn {
		t.Errorf("state after ready = %d, want live", m.state)
	}
	m.closed(closeTryLater)
	if last := asked[len(asked)-1]; last != time.Second {
		t.Errorf("the first delay after a live stream drew from [0, %v), want [0, 1s)", last)
	}

	// Coming back online retries at once with the first delay.
	m.closed(closeUnknown)
	m.online()
	m.closed(closeUnknown)
	if last := asked[len(asked)-1]; last != time.Second {
		t.Errorf("after online the delay drew from [0, %v), want [0, 1s)", last)
	}

	if _, retry := m.closed(closePolicy); retry || m.state != liveEnded {
		t.Errorf("closed(1008): retry %v, state %d; want the end", retry, m.state)
	}
}
