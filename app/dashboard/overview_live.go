package dashboard

import (
	"context"
	"math/rand/v2"
	"time"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"github.com/feedbackhq/feedback/shared/feedback"
)

// The overview's side of the live stream: it starts the client, follows
// the browser's online and offline events, and applies what the client
// emits on the UI goroutine, many updates per render when they come
// fast (a replay after a reconnect).

// startLive starts the live client of the workspace.
func (p *overviewPage) startLive(ctx app.Context) {
	p.changed = newSignal()
	for _, name := range []string{"online", "offline"} {
		f := app.FuncOf(func(app.Value, []app.Value) any { p.changed.notify(); return nil })
		app.Window().Call("addEventListener", name, f)
		p.release = append(p.release, func() { app.Window().Call("removeEventListener", name, f); f.Release() })
	}
	base := app.Window().Get("location").Get("origin").String()
	slug := p.Workspace.Slug
	c := &liveClient{
		m:       liveMachine{rand: rand.Int64N},
		url:     func(q string) string { return liveURL(base, slug, q) },
		dial:    dialLive,
		ended:   p.sessionEnded,
		online:  func() bool { return app.Window().Get("navigator").Get("onLine").Bool() },
		changed: p.changed,
		emit:    p.emit,
	}
	lc, stop := context.WithCancel(p.context())
	p.stop = stop
	p.live = liveConnecting
	p.Shell.setLive(liveConnecting, liveText(liveUpdate{state: liveConnecting}))
	go c.run(lc)
}

// sessionEnded asks the API whether the session still holds and the user
// is still a member of the workspace.
func (p *overviewPage) sessionEnded(c context.Context) string {
	me, err := getMe(c)
	switch {
	case isSignedOut(err):
		return endSignedOut
	case err != nil:
		return "" // the service cannot be reached: try the stream again
	}
	for _, m := range me.Workspaces {
		if m.Slug == p.Workspace.Slug {
			return ""
		}
	}
	return endNoAccess
}

// emit queues an update of the live client and, for the first of a
// batch, asks the UI goroutine to apply the queue.
func (p *overviewPage) emit(u liveUpdate) {
	p.mu.Lock()
	p.pending = append(p.pending, u)
	first := len(p.pending) == 1
	p.mu.Unlock()
	if first {
		p.ui.Dispatch(p.applyPending)
	}
}

func (p *overviewPage) applyPending(ctx app.Context) {
	p.mu.Lock()
	batch := p.pending
	p.pending = nil
	p.mu.Unlock()
	now, fresh := time.Now(), false
	for _, u := range batch {
		fresh = p.apply(u, now) || fresh
	}
	if fresh {
		ctx.After(highlightFor, func(app.Context) {}) // render again once the highlight is over
	}
}

// apply applies one update and reports whether it added an item to the
// feed.
func (p *overviewPage) apply(u liveUpdate, now time.Time) (added bool) {
	if u.state != p.live {
		p.live = u.state
		p.Shell.setLive(u.state, liveText(u))
		if (u.state == liveRetrying || u.state == liveOffline) && !p.wanted {
			p.reload() // no stream yet: show what the API has meanwhile
		}
	}
	switch {
	case u.state == liveEnded && u.ended == endNoAccess:
		p.Shell.reloadMe()
	case u.state == liveEnded:
		p.Shell.endSession("Your session has ended, so live feedback stopped. Sign in again.")
	case u.frame == nil:
	case u.frame.action == liveReset, u.frame.action == liveReady && u.frame.fresh:
		p.reload()
	case u.frame.action == liveEvent:
		ev := &u.frame.event
		if isKioskEvent(ev) {
			p.loadKiosks()
		}
		if isAlertEvent(ev) {
			p.loadAlertCount()
		}
		if ev.Type == feedback.EventHygieneSubmissionCreated {
			p.loadInsightsSoon()
		}
		if it, ok := eventItem(ev); ok {
			it.Arrived = now
			if p.today.add(&it, now) {
				p.loadTodaySoon()
			}
			return p.filter.keep(&it) && p.feed.add(it)
		}
	}
	return false
}

// reload reads the view: the forms and then the feed, today's counts and
// the kiosks. It runs when a stream starts (after its live.ready, so
// that nothing stored between the read and the stream's start is
// missed), when the stream could not resume (live.reset), and when no
// stream could be opened yet. A read of the feed under way is dropped:
// it may have started before the position the stream goes on from.
func (p *overviewPage) reload() {
	p.wanted = true
	p.loadForms()
	p.loadToday()
	p.loadKiosks()
	p.loadInsights()
}

// liveText is the status line of an update's state.
func liveText(u liveUpdate) string {
	switch u.state {
	case liveConnecting:
		return "Connecting to live feedback…"
	case liveOn:
		return "Live: new feedback appears as it arrives."
	case liveRetrying:
		return "Reconnecting: the connection to live feedback was lost. New feedback appears once it is back."
	case liveOffline:
		return "Offline: live feedback resumes when this device is back online."
	}
	return ""
}
