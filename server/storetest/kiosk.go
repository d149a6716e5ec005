package storetest

import (
	"testing"
	"time"

	"github.com/feedbackhq/feedback/server"
	"github.com/feedbackhq/feedback/shared/feedback"
)

// pairingCode stores a code, valid for ten minutes, whose hash is
// "code-"+name, and returns the hash.
func (f *fixture) pairingCode(ws, location string, form feedback.FormRef, name string) []byte {
	f.t.Helper()
	c := &server.PairingCode{WorkspaceID: ws, Hash: []byte("code-" + name),
		PairingCodeInput: feedback.PairingCodeInput{LocationID: location, FormRef: form, Name: name},
		ExpiresAt:        f.clock.Now().Add(10 * time.Minute)}
	f.must(f.s.CreatePairingCode(f.ctx(), c))
	return c.Hash
}

// pair pairs a kiosk named name, whose credential hash is "cred-"+name.
func (f *fixture) pair(ws, location string, form feedback.FormRef, name string) *server.Kiosk {
	f.t.Helper()
	code := f.pairingCode(ws, location, form, name)
	k := &server.Kiosk{CredentialHash: []byte("cred-" + name)}
	f.must(f.s.PairKiosk(f.ctx(), code, k))
	return k
}

func testKiosk(t *testing.T, h harness) {
	h.run(t, "Pair", func(t *testing.T, f *fixture) {
		w := f.world("acme")
		form := feedback.FormRef{Form: feedback.FormReview, ReviewID: w.review}
		code := f.pairingCode(w.ws, w.location, form, "Entrance")
		f.clock.Add(time.Minute)
		k := &server.Kiosk{CredentialHash: []byte("cred")}
		f.must(f.s.PairKiosk(f.ctx(), code, k))
		want := server.Kiosk{WorkspaceID: w.ws, CredentialHash: []byte("cred"), Kiosk: feedback.Kiosk{ID: k.ID, Name: "Entrance",
			LocationID: w.location, FormRef: form, PairedAt: feedback.Time{Time: f.clock.stored()},
			Timing: feedback.DefaultKioskTiming}}
		wantEqual(t, "the argument after PairKiosk", want, *k)
		got, err := f.s.KioskByCredential(f.ctx(), []byte("cred"))
		f.must(err)
		wantEqual(t, "KioskByCredential", want, *got)
		list, total, err := f.s.Kiosks(f.ctx(), w.ws, feedback.ListParams{Page: 1, PerPage: 10})
		f.must(err)
		wantEqual(t, "Kiosks", []server.Kiosk{want}, list)
		if total != 1 {
			t.Errorf("Kiosks total %d, want 1", total)
		}
		err = f.s.PairKiosk(f.ctx(), code, &server.Kiosk{CredentialHash: []byte("cred2")})
		wantCode(t, err, feedback.ENotFound)
		_, err = f.s.KioskByCredential(f.ctx(), []byte("cred2"))
		wantCode(t, err, feedback.ENotFound)
	})
	h.run(t, "PairTiming", func(t *testing.T, f *fixture) {
		w := f.world("acme")
		timing := feedback.KioskTiming{ResetSeconds: 2, IdleSeconds: 7, IntervalSeconds: 0}
		c := &server.PairingCode{WorkspaceID: w.ws, Hash: []byte("timed"), ExpiresAt: f.clock.Now().Add(time.Minute),
			PairingCodeInput: feedback.PairingCodeInput{LocationID: w.location, FormRef: feedback.FormRef{Form: feedback.FormHygiene}, Timing: &timing}}
		f.must(f.s.CreatePairingCode(f.ctx(), c))
		k := &server.Kiosk{CredentialHash: []byte("timed-cred")}
		f.must(f.s.PairKiosk(f.ctx(), c.Hash, k))
		got, err := f.s.KioskByCredential(f.ctx(), []byte("timed-cred"))
		f.must(err)
		if k.Timing != timing || got.Timing != timing {
			t.Errorf("timing after pairing %+v, stored %+v; want %+v", k.Timing, got.Timing, timing)
		}
	})
	h.run(t, "PairErrors", func(t *testing.T, f *fixture) {
		w := f.world("acme")
		hygiene := feedback.FormRef{Form: feedback.FormHygiene}
		code := f.pairingCode(w.ws, w.location, hygiene, "late")
		tests := []struct {
			name string
			code []byte
			at   time.Duration // after the code was made
		}{
			{"unknown code", []byte("code-other"), 0},
			{"at expiry", code, 10 * time.Minute},
			{"after expiry", code, time.Hour},
		}
		for _, tt := range tests {
			f.clock.Set(T0.Add(tt.at))
			err := f.s.PairKiosk(f.ctx(), tt.code, &server.Kiosk{CredentialHash: []byte("cred-" + tt.name)})
			wantCode(t, err, feedback.ENotFound)
		}
		f.clock.Set(T0.Add(10*time.Minute - time.Microsecond))
		f.must(f.s.PairKiosk(f.ctx(), code, &server.Kiosk{Kiosk: feedback.Kiosk{Name: "Own name"}, CredentialHash: []byte("cred-in-time")}))
		k, err := f.s.KioskByCredential(f.ctx(), []byte("cred-in-time"))
		f.must(err)
		if k.Name != "Own name" {
			t.Errorf("kiosk name %q, want the one PairKiosk was given", k.Name)
		}
	})
	h.run(t, "PairConcurrent", func(t *testing.T, f *fixture) {
		w := f.world("acme")
		code := f.pairingCode(w.ws, w.location, feedback.FormRef{Form: feedback.FormHygiene}, "race")
		const n = 10
		got := concurrently(t, n, func(i int) error {
			return f.s.PairKiosk(f.ctx(), code, &server.Kiosk{CredentialHash: []byte{byte(i)}})
		}, feedback.ENotFound)
		if got[""] != 1 || got[feedback.ENotFound] != n-1 {
			t.Errorf("%d of %d pairings with one code won and %d lost, want 1 and %d", got[""], n, got[feedback.ENotFound], n-1)
		}
	})
	h.run(t, "PairingCodeMissing", func(t *testing.T, f *fixture) {
		w := f.world("acme")
		other := f.world("other")
		tests := []struct {
			name     string
			location string
			form     feedback.FormRef
			params   []string
		}{
			{"unknown location", feedback.NewID(), feedback.FormRef{Form: feedback.FormHygiene}, []string{"location_id"}},
			{"location of another workspace", other.location, feedback.FormRef{Form: feedback.FormHygiene}, []string{"location_id"}},
			{"unknown review", w.location, feedback.FormRef{Form: feedback.FormReview, ReviewID: feedback.NewID()}, []string{"review_id"}},
			{"survey of another workspace", w.location, feedback.FormRef{Form: feedback.FormSurvey, SurveyID: other.survey}, []string{"survey_id"}},
		}
		for _, tt := range tests {
			c := &server.PairingCode{WorkspaceID: w.ws, Hash: []byte(tt.name), ExpiresAt: T0.Add(time.Hour),
				PairingCodeInput: feedback.PairingCodeInput{LocationID: tt.location, FormRef: tt.form}}
			err := f.s.CreatePairingCode(f.ctx(), c)
			wantCode(t, err, feedback.ENotFound)
			wantParams(t, err, tt.params...)
			err = f.s.PairKiosk(f.ctx(), c.Hash, &server.Kiosk{CredentialHash: []byte(tt.name)})
			wantCode(t, err, feedback.ENotFound)
		}
	})
	h.run(t, "Heartbeat", func(t *testing.T, f *fixture) {
		w := f.world("acme")
		k := f.pair(w.ws, w.location, feedback.FormRef{Form: feedback.FormHygiene}, "k")
		f.clock.Add(time.Minute)
		seen := f.clock.stored()
		f.must(f.s.KioskHeartbeat(f.ctx(), w.ws, k.ID, feedback.Heartbeat{QueueDepth: 7, AppVersion: "1.2.3"}))
		tests := []struct {
			name   string
			later  time.Duration
			online bool
		}{
			{"just seen", 0, true},
			{"two missed heartbeats", 2*time.Minute + 59*time.Second, true},
			{"three missed heartbeats", 3 * time.Minute, false},
		}
		for _, tt := range tests {
			f.clock.Set(seen.Add(tt.later))
			_, err := f.s.MarkKiosksOffline(f.ctx())
			f.must(err)
			got, err := f.s.KioskByCredential(f.ctx(), k.CredentialHash)
			f.must(err)
			if got.LastSeenAt == nil || !got.LastSeenAt.Equal(seen) || got.QueueDepth != 7 || got.AppVersion != "1.2.3" || got.Online != tt.online {
				t.Errorf("%s: last_seen_at %v, queue %d, version %q, online %v; want %v, 7, 1.2.3, %v",
					tt.name, got.LastSeenAt, got.QueueDepth, got.AppVersion, got.Online, seen, tt.online)
			}
		}
		wantCode(t, f.s.KioskHeartbeat(f.ctx(), w.ws, feedback.NewID(), feedback.Heartbeat{}), feedback.ENotFound)
	})
	h.run(t, "Synced", func(t *testing.T, f *fixture) {
		w := f.world("acme")
		k := f.pair(w.ws, w.location, feedback.FormRef{Form: feedback.FormHygiene}, "k")
		f.must(f.s.KioskHeartbeat(f.ctx(), w.ws, k.ID, feedback.Heartbeat{QueueDepth: 4, AppVersion: "1.2.3"}))
		ten := 10
		steps := []struct {
			name  string
			depth *int
			left  int
			want  int
		}{
			{"all four sent without a report", nil, 4, 0},
			{"ten reported, four answered", &ten, 4, 6},
			{"more answered than waited", nil, 9, 0},
		}
		for _, st := range steps {
			f.clock.Add(time.Minute)
			seen := f.clock.stored()
			f.must(f.s.KioskSynced(f.ctx(), w.ws, k.ID, st.depth, st.left))
			got, err := f.s.KioskByCredential(f.ctx(), k.CredentialHash)
			f.must(err)
			if got.QueueDepth != st.want || got.LastSeenAt == nil || !got.LastSeenAt.Equal(seen) || got.AppVersion != "1.2.3" {
				t.Errorf("%s: queue %d, last seen %v, version %q; want %d, %v, 1.2.3", st.name, got.QueueDepth,
					got.LastSeenAt, got.AppVersion, st.want, seen)
			}
		}
		wantCode(t, f.s.KioskSynced(f.ctx(), w.ws, feedback.NewID(), nil, 1), feedback.ENotFound)
	})
	h.run(t, "Revoke", func(t *testing.T, f *fixture) {
		w := f.world("acme")
		k := f.pair(w.ws, w.location, feedback.FormRef{Form: feedback.FormHygiene}, "k")
		f.must(f.s.KioskHeartbeat(f.ctx(), w.ws, k.ID, feedback.Heartbeat{}))
		f.clock.Add(time.Second)
		revokedAt := f.clock.stored()
		f.must(f.s.RevokeKiosk(f.ctx(), w.ws, k.ID))
		f.clock.Add(time.Second)
		f.must(f.s.RevokeKiosk(f.ctx(), w.ws, k.ID))
		got, err := f.s.KioskByCredential(f.ctx(), k.CredentialHash)
		f.must(err)
		if got.RevokedAt == nil || !got.RevokedAt.Equal(revokedAt) || got.Online {
			t.Errorf("revoked kiosk: revoked_at %v, online %v; want %v (the first revocation), offline", got.RevokedAt, got.Online, revokedAt)
		}
		wantCode(t, f.s.RevokeKiosk(f.ctx(), w.ws, feedback.NewID()), feedback.ENotFound)
	})
}
