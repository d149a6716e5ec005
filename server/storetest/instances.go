package storetest

import (
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/feedbackhq/feedback/server"
	"github.com/feedbackhq/feedback/shared/feedback"
)

// InstancesOpener opens n stores on one fresh, empty, migrated database,
// as n instances of feedbackd hold it, all on the clock now, and closes
// them when tb ends.
type InstancesOpener func(tb testing.TB, now func() time.Time, n int) []server.Store

// RunInstances runs the tests of what several instances sharing one
// database do at once.
func RunInstances(t *testing.T, open InstancesOpener) {
	t.Run("PresenceSweeps", func(t *testing.T) {
		t.Parallel()
		testSweepsAcrossInstances(t, open)
	})
	t.Run("PresenceHeartbeats", func(t *testing.T) {
		t.Parallel()
		testHeartbeatsAcrossInstances(t, open)
	})
}

// instances opens n stores on one database with a fixture on the first.
func instances(t *testing.T, open InstancesOpener, n int) (*fixture, []server.Store) {
	clock := NewClock(T0)
	stores := open(t, clock.Now, n)
	return &fixture{t: t, s: stores[0], clock: clock}, stores
}

// testSweepsAcrossInstances has four instances sweep three times each, at
// once, when 30 kiosks of three workspaces went silent: each kiosk gets
// exactly one kiosk.offline.
func testSweepsAcrossInstances(t *testing.T, open InstancesOpener) {
	f, stores := instances(t, open, 4)
	var kiosks []*server.Kiosk
	for i := range 3 {
		w := f.world(fmt.Sprintf("w%d", i))
		for j := range 10 {
			k := f.pair(w.ws, w.location, feedback.FormRef{Form: feedback.FormHygiene}, fmt.Sprintf("k%d-%d", i, j))
			f.heartbeat(k, 0, "")
			kiosks = append(kiosks, k)
		}
	}
	f.clock.Add(silence)
	var mu sync.Mutex
	marked := 0
	concurrently(t, 3*len(stores), func(i int) error {
		n, err := stores[i%len(stores)].MarkKiosksOffline(f.ctx())
		mu.Lock()
		defer mu.Unlock()
		marked += n
		return err
	})
	if marked != len(kiosks) {
		t.Errorf("the sweeps marked %d kiosks in all, want %d", marked, len(kiosks))
	}
	offline := map[string]int{}
	for _, ws := range workspacesOf(kiosks) {
		for _, e := range f.presenceEvents(ws) {
			if e.Type == feedback.EventKioskOffline {
				offline[e.Data.KioskID]++
			}
		}
	}
	for _, k := range kiosks {
		if offline[k.ID] != 1 || f.online(k) {
			t.Errorf("kiosk %s: %d kiosk.offline events, online %v; want 1, offline", k.Name, offline[k.ID], f.online(k))
		}
	}
}

// testHeartbeatsAcrossInstances races 20 heartbeats of one kiosk through
// four instances while each of them sweeps (see heartbeatRace).
func testHeartbeatsAcrossInstances(t *testing.T, open InstancesOpener) {
	f, stores := instances(t, open, 4)
	heartbeatRace(t, f, stores, len(stores))
}

// workspacesOf returns the workspaces of kiosks, each once.
func workspacesOf(kiosks []*server.Kiosk) []string {
	var out []string
	seen := map[string]bool{}
	for _, k := range kiosks {
		if !seen[k.WorkspaceID] {
			seen[k.WorkspaceID] = true
			out = append(out, k.WorkspaceID)
		}
	}
	return out
}
