package storetest

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/feedbackhq/feedback/server"
	"github.com/feedbackhq/feedback/shared/feedback"
)

// silence is how long after its last heartbeat a kiosk is offline: three
// missed heartbeats of one a minute.
const silence = 3 * time.Minute

// presenceEvent is a kiosk.online or kiosk.offline event, its data
// decoded.
type presenceEvent struct {
	Type string
	Data feedback.KioskPresence
}

// presenceEvents returns the workspace's kiosk.online and kiosk.offline
// events, in order.
func (f *fixture) presenceEvents(ws string) []presenceEvent {
	f.t.Helper()
	var out []presenceEvent
	for _, e := range f.events(ws) {
		if e.Type != feedback.EventKioskOnline && e.Type != feedback.EventKioskOffline {
			continue
		}
		p := presenceEvent{Type: e.Type}
		f.must(json.Unmarshal(e.Data, &p.Data))
		out = append(out, p)
	}
	return out
}

// sweep runs MarkKiosksOffline and wants it to mark n kiosks.
func (f *fixture) sweep(n int) {
	f.t.Helper()
	got, err := f.s.MarkKiosksOffline(f.ctx())
	f.must(err)
	if got != n {
		f.t.Errorf("MarkKiosksOffline marked %d kiosks, want %d", got, n)
	}
}

// heartbeat sends a heartbeat of k at the clock's now.
func (f *fixture) heartbeat(k *server.Kiosk, depth int, version string) {
	f.t.Helper()
	f.must(f.s.KioskHeartbeat(f.ctx(), k.WorkspaceID, k.ID, feedback.Heartbeat{QueueDepth: depth, AppVersion: version}))
}

// online reports whether the kiosk list of k's workspace shows k online.
func (f *fixture) online(k *server.Kiosk) bool {
	f.t.Helper()
	list, _, err := f.s.Kiosks(f.ctx(), k.WorkspaceID, feedback.ListParams{Page: 1, PerPage: feedback.MaxPerPage})
	f.must(err)
	for _, got := range list {
		if got.ID == k.ID {
			return got.Online
		}
	}
	f.t.Fatalf("kiosk %s is not in its workspace's list", k.ID)
	return false
}

// presenceOf is the data of k's presence events, as decoded from an
// event (times in milliseconds), when it was last seen at seen.
func presenceOf(k *server.Kiosk, seen time.Time, depth int, version string) feedback.KioskPresence {
	return feedback.KioskPresence{KioskID: k.ID, LocationID: k.LocationID, Name: k.Name,
		LastSeenAt: feedback.Time{Time: seen.Truncate(time.Millisecond)}, QueueDepth: depth, AppVersion: version}
}

func testPresence(t *testing.T, h harness) {
	hygiene := feedback.FormRef{Form: feedback.FormHygiene}
	h.run(t, "OnlineOnFirstHeartbeat", func(t *testing.T, f *fixture) {
		w := f.world("acme")
		k := f.pair(w.ws, w.location, hygiene, "Door")
		if f.online(k) || len(f.presenceEvents(w.ws)) != 0 {
			t.Errorf("a kiosk just paired is online or has presence events")
		}
		f.clock.Add(time.Minute)
		seen := f.clock.stored()
		f.heartbeat(k, 3, "b42")
		f.clock.Add(time.Minute)
		f.heartbeat(k, 0, "b43")
		want := []presenceEvent{{feedback.EventKioskOnline, presenceOf(k, seen, 3, "b42")}}
		wantEqual(t, "presence events after two heartbeats", want, f.presenceEvents(w.ws))
		if !f.online(k) {
			t.Errorf("the kiosk list shows the kiosk offline after its heartbeats")
		}
	})
	h.run(t, "OfflineAfterThreeMissedHeartbeats", func(t *testing.T, f *fixture) {
		w := f.world("acme")
		k := f.pair(w.ws, w.location, hygiene, "Door")
		f.sweep(0) // never seen: nothing to mark
		f.heartbeat(k, 2, "b1")
		seen := f.clock.stored()
		f.clock.Add(silence - time.Microsecond)
		f.sweep(0)
		if !f.online(k) {
			t.Errorf("offline after two missed heartbeats and 59.999999 s")
		}
		f.clock.Add(time.Microsecond)
		f.sweep(1)
		if f.online(k) {
			t.Errorf("online after three missed heartbeats and a sweep")
		}
		f.clock.Add(time.Hour)
		f.sweep(0) // a second sweep of the same outage
		back := f.clock.stored()
		f.heartbeat(k, 5, "b2")
		want := []presenceEvent{
			{feedback.EventKioskOnline, presenceOf(k, seen, 2, "b1")},
			{feedback.EventKioskOffline, presenceOf(k, seen, 2, "b1")},
			{feedback.EventKioskOnline, presenceOf(k, back, 5, "b2")},
		}
		wantEqual(t, "presence events of an outage", want, f.presenceEvents(w.ws))
		if !f.online(k) {
			t.Errorf("offline after the heartbeat that ended the outage")
		}
	})
	h.run(t, "SyncMarksOnline", func(t *testing.T, f *fixture) {
		w := f.world("acme")
		k := f.pair(w.ws, w.location, hygiene, "Door")
		seven := 7
		f.must(f.s.KioskSynced(f.ctx(), w.ws, k.ID, &seven, 3))
		want := []presenceEvent{{feedback.EventKioskOnline, presenceOf(k, f.clock.stored(), 4, "")}}
		wantEqual(t, "presence events after a sync", want, f.presenceEvents(w.ws))
	})
	h.run(t, "ConcurrentHeartbeats", func(t *testing.T, f *fixture) {
		heartbeatRace(t, f, []server.Store{f.s}, 0)
	})
	h.run(t, "Revoke", func(t *testing.T, f *fixture) {
		w := f.world("acme")
		k := f.pair(w.ws, w.location, hygiene, "Door")
		silent := f.pair(w.ws, w.location, hygiene, "Silent")
		f.heartbeat(k, 1, "b1")
		seen := f.clock.stored()
		f.clock.Add(time.Second)
		f.must(f.s.RevokeKiosk(f.ctx(), w.ws, k.ID))
		f.must(f.s.RevokeKiosk(f.ctx(), w.ws, k.ID))
		f.must(f.s.RevokeKiosk(f.ctx(), w.ws, silent.ID))
		f.heartbeat(k, 1, "b1") // a heartbeat that passed the credential check before the revocation
		f.clock.Add(silence)
		f.sweep(0)
		want := []presenceEvent{
			{feedback.EventKioskOnline, presenceOf(k, seen, 1, "b1")},
			{feedback.EventKioskOffline, presenceOf(k, seen, 1, "b1")},
		}
		wantEqual(t, "presence events of revocations", want, f.presenceEvents(w.ws))
		if f.online(k) {
			t.Errorf("a revoked kiosk is online")
		}
	})
	h.run(t, "DeleteLocation", func(t *testing.T, f *fixture) {
		w := f.world("acme")
		k := f.pair(w.ws, w.location, hygiene, "Door")
		f.heartbeat(k, 0, "b1")
		seen := f.clock.stored()
		f.must(f.s.DeleteLocation(f.ctx(), w.ws, w.location))
		want := []presenceEvent{
			{feedback.EventKioskOnline, presenceOf(k, seen, 0, "b1")},
			{feedback.EventKioskOffline, presenceOf(k, seen, 0, "b1")},
		}
		wantEqual(t, "presence events after deleting the kiosk's location", want, f.presenceEvents(w.ws))
	})
	h.run(t, "Deliveries", func(t *testing.T, f *fixture) {
		w := f.world("acme")
		both := f.subscribe(w.ws, feedback.EventKioskOnline, feedback.EventKioskOffline)
		all := f.subscribe(w.ws, "*")
		other := f.subscribe(w.ws, feedback.EventHygieneSubmissionCreated)
		k := f.pair(w.ws, w.location, hygiene, "Door")
		f.heartbeat(k, 0, "")
		f.clock.Add(silence)
		f.sweep(1)
		for _, c := range []struct {
			w    *server.Webhook
			want []string // newest first
		}{
			{both, []string{feedback.EventKioskOffline, feedback.EventKioskOnline}},
			{all, []string{feedback.EventKioskOffline, feedback.EventKioskOnline}},
			{other, nil},
		} {
			var got []string
			for _, d := range f.deliveries(w.ws, c.w.ID) {
				got = append(got, d.EventType)
			}
			wantEqual(t, "deliveries of the subscription to "+c.w.URL, c.want, got)
		}
	})
	h.run(t, "Workspaces", func(t *testing.T, f *fixture) {
		a, b := f.world("a"), f.world("b")
		ka := f.pair(a.ws, a.location, hygiene, "A")
		kb := f.pair(b.ws, b.location, hygiene, "B")
		f.heartbeat(ka, 0, "")
		f.heartbeat(kb, 0, "")
		f.clock.Add(time.Minute)
		seen := f.clock.stored()
		f.heartbeat(kb, 0, "")
		wantCode(t, f.s.KioskHeartbeat(f.ctx(), a.ws, kb.ID, feedback.Heartbeat{}), feedback.ENotFound)
		wantCode(t, f.s.RevokeKiosk(f.ctx(), a.ws, kb.ID), feedback.ENotFound)
		f.clock.Add(silence - time.Minute)
		f.sweep(1)
		if len(f.presenceEvents(a.ws)) != 2 || f.online(ka) {
			t.Errorf("workspace A: %+v, online %v; want online and offline events, offline", f.presenceEvents(a.ws), f.online(ka))
		}
		want := []presenceEvent{{feedback.EventKioskOnline, presenceOf(kb, T0.UTC().Truncate(time.Microsecond), 0, "")}}
		wantEqual(t, "workspace B's presence events", want, f.presenceEvents(b.ws))
		if !f.online(kb) {
			t.Errorf("workspace B's kiosk, seen at %v, is offline", seen)
		}
	})
}

// heartbeatRace sends 20 heartbeats of one kiosk at once, spread over
// stores, with sweeps calls of MarkKiosksOffline among them, at the kiosk's first
// contact and again at the end of an outage: each time the kiosk gets
// one kiosk.online, and the sweep after three minutes one kiosk.offline.
func heartbeatRace(t *testing.T, f *fixture, stores []server.Store, sweeps int) {
	w := f.world("acme")
	k := f.pair(w.ws, w.location, feedback.FormRef{Form: feedback.FormHygiene}, "Door")
	const n = 20
	for _, round := range []string{"first contact", "end of an outage"} {
		got := concurrently(t, n+sweeps, func(i int) error {
			s := stores[i%len(stores)]
			if i >= n {
				_, err := s.MarkKiosksOffline(f.ctx())
				return err
			}
			return s.KioskHeartbeat(f.ctx(), w.ws, k.ID, feedback.Heartbeat{QueueDepth: i})
		})
		if got[""] != n+sweeps {
			t.Errorf("%s: %d of %d concurrent calls succeeded", round, got[""], n+sweeps)
		}
		f.clock.Add(silence)
		f.sweep(1)
	}
	var types []string
	for _, e := range f.presenceEvents(w.ws) {
		types = append(types, e.Type)
	}
	want := []string{feedback.EventKioskOnline, feedback.EventKioskOffline, feedback.EventKioskOnline, feedback.EventKioskOffline}
	wantEqual(t, "presence events of 20 concurrent heartbeats, twice", want, types)
}
