package dashboard

import (
	"context"
	"encoding/json"
	"math/rand/v2"
	"strings"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"github.com/feedbackhq/feedback/shared/feedback"
)

// The shell watches the alerts of the workspace on every page of it: a
// live stream of its own keeps the navigation's count of unresolved
// alerts, plays the sound and shows the browser notification a person
// turned on, and hands each alert event to the alerts page on screen.

// alertListener is a page that shows alerts: the shell hands it every
// alert event, and asks it to read its alerts again when the stream
// starts or could not resume.
type alertListener interface {
	alertEvent(ctx app.Context, kind string, a feedback.Alert)
	alertsReset(ctx app.Context)
}

// alertWatch is the shell's stream of alert events for one workspace.
type alertWatch struct {
	slug     string // the workspace watched; "" when none is
	gen      int    // counts the streams started: updates of an older one are dropped
	open     int    // unresolved alerts (open or acknowledged)
	known    bool   // open has been read
	state    liveState
	text     string // the live status line of the stream's state
	cancel   context.CancelFunc
	release  []func()
	listener alertListener
}

// watchAlerts follows the alerts of the path's workspace, once the user
// is known, in the browser; it stops following another.
func (s *Shell) watchAlerts() {
	if !app.IsClient || s.ui.Context == nil || s.status != ready {
		return
	}
	slug := ""
	if ws := s.workspace(); ws != nil && s.slug != "" {
		slug = ws.Slug
	}
	if slug == s.alerts.slug {
		return
	}
	s.alerts.stop()
	s.alerts.slug, s.alerts.known = slug, false
	if slug != "" {
		s.startAlertStream(slug)
	}
}

// stop ends the stream.
func (w *alertWatch) stop() {
	if w.cancel != nil {
		w.cancel()
		w.cancel = nil
	}
	for _, f := range w.release {
		f()
	}
	w.release, w.slug = nil, ""
}

// startAlertStream opens the stream of the workspace slug.
func (s *Shell) startAlertStream(slug string) {
	w := &s.alerts
	w.gen++
	gen := w.gen
	changed := newSignal()
	for _, name := range []string{"online", "offline"} {
		f := app.FuncOf(func(app.Value, []app.Value) any { changed.notify(); return nil })
		app.Window().Call("addEventListener", name, f)
		w.release = append(w.release, func() { app.Window().Call("removeEventListener", name, f); f.Release() })
	}
	base := app.Window().Get("location").Get("origin").String()
	c := &liveClient{
		m:       liveMachine{rand: rand.Int64N},
		url:     func(q string) string { return liveURL(base, slug, q) },
		dial:    dialLive,
		ended:   func(c context.Context) string { return membershipEnded(c, slug) },
		online:  func() bool { return app.Window().Get("navigator").Get("onLine").Bool() },
		changed: changed,
		emit: func(u liveUpdate) {
			s.ui.Dispatch(func(ctx app.Context) {
				if s.alerts.gen == gen {
					s.applyAlertUpdate(ctx, u)
				}
			})
		},
	}
	lc, cancel := context.WithCancel(s.context())
	w.cancel = cancel
	s.setAlertState(liveUpdate{state: liveConnecting})
	go c.run(lc)
}

// membershipEnded asks the API whether the session still holds and the
// user is still a member of the workspace slug (see liveClient.ended).
func membershipEnded(c context.Context, slug string) string {
	me, err := getMe(c)
	switch {
	case isSignedOut(err):
		return endSignedOut
	case err != nil:
		return ""
	}
	for _, m := range me.Workspaces {
		if m.Slug == slug {
			return ""
		}
	}
	return endNoAccess
}

// applyAlertUpdate applies one update of the stream.
func (s *Shell) applyAlertUpdate(ctx app.Context, u liveUpdate) {
	w := &s.alerts
	if u.state != w.state {
		s.setAlertState(u)
	}
	switch {
	case u.state == liveEnded && u.ended == endNoAccess:
		s.reloadMe()
	case u.state == liveEnded:
		s.endSession("Your session has ended, so live alerts stopped. Sign in again.")
	case u.frame == nil:
	case u.frame.action == liveReset, u.frame.action == liveReady && u.frame.fresh:
		s.loadAlertCount()
		if w.listener != nil {
			w.listener.alertsReset(ctx)
		}
	case u.frame.action == liveEvent && strings.HasPrefix(u.frame.event.Type, "alert."):
		var a feedback.Alert
		if json.Unmarshal(u.frame.event.Data, &a) != nil || a.ID == "" {
			return
		}
		s.loadAlertCount()
		if u.frame.event.Type == feedback.EventAlertTriggered {
			announceAlert(ctx, &a)
		}
		if w.listener != nil {
			w.listener.alertEvent(ctx, u.frame.event.Type, a)
		}
	}
}

// setAlertState records the stream's state, and shows it in the live
// status line on the alerts pages.
func (s *Shell) setAlertState(u liveUpdate) {
	w := &s.alerts
	w.state = u.state
	w.text = alertLiveText(u.state)
	if s.onAlertsPage() {
		s.live, s.liveState = w.text, w.state
	}
}

// onAlertsPage reports whether the page on screen shows alerts.
func (s *Shell) onAlertsPage() bool {
	return s.route != nil && (s.route.name == "alerts" || s.route.name == "alert")
}

// listenAlerts hands the alert events to l, a page just mounted, and
// shows the stream's state in the live status line; nil, from a page
// going away, hands them to none and takes the line away unless another
// page has put its own there.
func (s *Shell) listenAlerts(l alertListener) {
	s.alerts.listener = l
	if l != nil {
		s.live, s.liveState = s.alerts.text, s.alerts.state
		return
	}
	s.ui.Dispatch(func(app.Context) { // after the next page has mounted
		if s.live == s.alerts.text && !s.onAlertsPage() {
			s.live = ""
		}
	})
}

// loadAlertCount reads the number of unresolved alerts.
func (s *Shell) loadAlertCount() {
	slug, gen := s.alerts.slug, s.alerts.gen
	ws := s.workspace()
	if ws == nil || ws.Slug != slug {
		return
	}
	a := workspaceAPI(ws)
	s.async(func(c context.Context) func(app.Context) {
		page, err := a.Alerts(c, feedback.ListParams{Page: 1, PerPage: 1}, feedback.AlertFilter{State: activeAlerts})
		return func(ctx app.Context) {
			if err != nil || s.alerts.gen != gen {
				return // the badge keeps the last count it knew
			}
			s.alerts.open, s.alerts.known = page.Meta.Total, true
		}
	})
}

// activeAlerts is the filter of GET /alerts for the open and the
// acknowledged alerts.
const activeAlerts = "active"

// alertLiveText is the live status line of the alerts pages.
func alertLiveText(state liveState) string {
	switch state {
	case liveConnecting:
		return "Connecting to live alerts…"
	case liveOn:
		return "Live: new alerts appear as they are raised."
	case liveRetrying:
		return "Reconnecting: the connection to live alerts was lost. New alerts appear once it is back."
	case liveOffline:
		return "Offline: live alerts resume when this device is back online."
	}
	return ""
}
