package storetest

import (
	"testing"
	"time"

	"github.com/feedbackhq/feedback/server"
	"github.com/feedbackhq/feedback/shared/feedback"
)

func (f *fixture) user(subject string) *server.User {
	f.t.Helper()
	u := &server.User{Issuer: "https://idp.example", Subject: subject, Email: subject + "@example.com", Name: subject}
	f.must(f.s.SignIn(f.ctx(), u))
	return u
}

// session creates a session of u whose cookies hash to access and
// refresh.
func (f *fixture) session(u *server.User, access, refresh string) *server.Session {
	f.t.Helper()
	now := f.clock.Now()
	s := &server.Session{UserID: u.ID, AccessHash: []byte(access), AccessExpiresAt: now.Add(time.Hour),
		RefreshHash: []byte(refresh), RefreshExpiresAt: now.Add(30 * 24 * time.Hour), AMR: []string{"pwd", "otp"},
		IP: "192.0.2.1", UserAgent: "Firefox"}
	f.must(f.s.CreateSession(f.ctx(), s))
	return s
}

func testAuth(t *testing.T, h harness) {
	h.run(t, "SignIn", func(t *testing.T, f *fixture) {
		first := f.user("ada")
		second := f.user("bob")
		if !first.PlatformOwner || second.PlatformOwner {
			t.Errorf("platform owner: first %v, second %v; want only the first", first.PlatformOwner, second.PlatformOwner)
		}
		f.clock.Add(time.Minute)
		again := &server.User{Issuer: "https://idp.example", Subject: "bob", Email: "new@example.com", Name: "Bob"}
		f.must(f.s.SignIn(f.ctx(), again))
		got, err := f.s.User(f.ctx(), second.ID)
		f.must(err)
		if again.ID != second.ID || got.Email != "new@example.com" || got.Name != "Bob" ||
			!got.LastSignInAt.Equal(f.clock.stored()) || !got.CreatedAt.Equal(second.CreatedAt) {
			t.Errorf("second sign-in: %+v", got)
		}
		other := &server.User{Issuer: "https://other.example", Subject: "bob", Email: "b@example.com"}
		f.must(f.s.SignIn(f.ctx(), other))
		if other.ID == second.ID {
			t.Errorf("the same subject of another issuer is the same user")
		}
		_, err = f.s.User(f.ctx(), feedback.NewID())
		wantCode(t, err, feedback.ENotFound)
	})
	h.run(t, "Memberships", func(t *testing.T, f *fixture) {
		owner, viewer := f.user("ada"), f.user("bob")
		f.workspace("beta")
		f.workspace("alpha")
		got, err := f.s.Memberships(f.ctx(), owner.ID)
		f.must(err)
		if len(got) != 2 || got[0].Slug != "alpha" || got[0].Role != feedback.RoleOwner {
			t.Errorf("an owner's memberships: %+v", got)
		}
		got, err = f.s.Memberships(f.ctx(), viewer.ID)
		f.must(err)
		if len(got) != 0 {
			t.Errorf("a user with no membership sees %+v", got)
		}
	})
	h.run(t, "Session", testSessionRotation)
	h.run(t, "SessionRenewalClaim", testRenewalClaim)
	h.run(t, "Audit", testAudit)
	h.run(t, "Members", testMembers)
}

func testSessionRotation(t *testing.T, f *fixture) {
	u := f.user("ada")
	s := f.session(u, "a1", "r1")
	got, err := f.s.SessionByAccess(f.ctx(), []byte("a1"))
	f.must(err)
	if got.ID != s.ID || got.UserID != u.ID || len(got.AMR) != 2 || got.UserAgent != "Firefox" || got.RevokedAt != nil {
		t.Errorf("SessionByAccess: %+v", got)
	}
	f.clock.Add(2 * time.Hour)
	next := server.Rotation{AccessHash: []byte("a2"), AccessExpiresAt: f.clock.Now().Add(time.Hour), RefreshHash: []byte("r2")}
	rotated, err := f.s.RotateSession(f.ctx(), []byte("r1"), next, 30*time.Second)
	f.must(err)
	if rotated.ID != s.ID || string(rotated.RefreshHash) != "r2" {
		t.Errorf("RotateSession: %+v", rotated)
	}
	_, err = f.s.SessionByAccess(f.ctx(), []byte("a1"))
	wantCode(t, err, feedback.ENotFound)
	same, err := f.s.RotateSession(f.ctx(), []byte("r1"), server.Rotation{AccessHash: []byte("x"), RefreshHash: []byte("y")}, 30*time.Second)
	f.must(err) // a concurrent renewal: the session as it is
	if same.ID != s.ID || string(same.RefreshHash) != "r2" {
		t.Errorf("a renewal within the grace returned %+v; want the live session unchanged", same)
	}
	f.clock.Add(time.Minute)
	_, err = f.s.RotateSession(f.ctx(), []byte("r1"), server.Rotation{AccessHash: []byte("x"), RefreshHash: []byte("y")}, 30*time.Second)
	wantCode(t, err, feedback.ETokenRevoked) // a stolen cookie
	got, err = f.s.SessionByAccess(f.ctx(), []byte("a2"))
	f.must(err)
	if got.RevokedAt == nil || got.RevokedReason != "refresh token reused" {
		t.Errorf("after reuse the session is %+v; want it revoked", got)
	}
	audit, _, err := f.s.AuditLog(f.ctx(), feedback.ListParams{Page: 1, PerPage: 5})
	f.must(err)
	if len(audit) != 1 || audit[0].Action != feedback.AuditRefreshReused || audit[0].Target != "session:"+s.ID ||
		audit[0].ActorID == nil || *audit[0].ActorID != u.ID {
		t.Errorf("the theft's audit entry: %+v", audit)
	}
	_, err = f.s.RotateSession(f.ctx(), []byte("r2"), server.Rotation{AccessHash: []byte("x"), RefreshHash: []byte("y")}, 0)
	wantCode(t, err, feedback.ENotFound)

	live := f.session(u, "b1", "q1")
	other := f.user("bob")
	wantCode(t, f.s.RevokeSession(f.ctx(), other.ID, live.ID, "x"), feedback.ENotFound)
	list, err := f.s.Sessions(f.ctx(), u.ID)
	f.must(err)
	if len(list) != 1 || list[0].ID != live.ID {
		t.Errorf("Sessions lists %d, want only the live one", len(list))
	}
	f.must(f.s.TouchSession(f.ctx(), live.ID, f.clock.Now().Add(time.Second), "198.51.100.7"))
	f.must(f.s.RevokeSession(f.ctx(), u.ID, live.ID, "signed out"))
	wantCode(t, f.s.RevokeSession(f.ctx(), u.ID, live.ID, "again"), feedback.ENotFound)
	f.clock.Add(30 * 24 * time.Hour)
	f.session(u, "c1", "p1")
	f.clock.Add(30*24*time.Hour + time.Second)
	_, err = f.s.RotateSession(f.ctx(), []byte("p1"), server.Rotation{AccessHash: []byte("x"), RefreshHash: []byte("y")}, 0)
	wantCode(t, err, feedback.ENotFound) // expired
	if list, _ := f.s.Sessions(f.ctx(), u.ID); len(list) != 0 {
		t.Errorf("an expired session is listed")
	}
}

// testRenewalClaim: of concurrent renewals only the first claims the
// session; the rotation keeps or replaces the provider tokens and ends
// the claim; an abandoned claim lapses after the grace.
func testRenewalClaim(t *testing.T, f *fixture) {
	const grace = 30 * time.Second
	u := f.user("ada")
	s := &server.Session{UserID: u.ID, AccessHash: []byte("a1"), AccessExpiresAt: f.clock.Now().Add(time.Hour),
		RefreshHash: []byte("r1"), RefreshExpiresAt: f.clock.Now().Add(30 * 24 * time.Hour),
		ProviderToken: []byte("sealed-refresh"), ProviderIDToken: []byte("sealed-id")}
	f.must(f.s.CreateSession(f.ctx(), s))
	f.clock.Add(2 * time.Hour)
	first, claimed, err := f.s.ClaimRenewal(f.ctx(), []byte("r1"), grace)
	f.must(err)
	if !claimed || first.ID != s.ID || string(first.ProviderToken) != "sealed-refresh" || string(first.ProviderIDToken) != "sealed-id" {
		t.Fatalf("the first claim: %v %+v", claimed, first)
	}
	second, claimed, err := f.s.ClaimRenewal(f.ctx(), []byte("r1"), grace)
	f.must(err)
	if claimed || second.ID != s.ID {
		t.Errorf("a concurrent claim: claimed %v, %+v; want the session, not claimed", claimed, second)
	}
	next := server.Rotation{AccessHash: []byte("a2"), AccessExpiresAt: f.clock.Now().Add(time.Hour), RefreshHash: []byte("r2"),
		ProviderToken: []byte("sealed-refresh-2")}
	rotated, err := f.s.RotateSession(f.ctx(), []byte("r1"), next, grace)
	f.must(err)
	if string(rotated.ProviderToken) != "sealed-refresh-2" || string(rotated.ProviderIDToken) != "sealed-id" || rotated.RenewingAt != nil {
		t.Errorf("after the rotation: %+v; want the new provider token, the old ID token, no claim", rotated)
	}
	got, err := f.s.SessionByAccess(f.ctx(), []byte("a2"))
	f.must(err)
	if string(got.ProviderToken) != "sealed-refresh-2" || string(got.ProviderIDToken) != "sealed-id" || got.RenewingAt != nil {
		t.Errorf("the stored session after the rotation: %+v", got)
	}
	late, claimed, err := f.s.ClaimRenewal(f.ctx(), []byte("r1"), grace)
	f.must(err)
	if claimed || string(late.RefreshHash) != "r2" {
		t.Errorf("a claim with the value just rotated out: claimed %v, %+v; want the live session, not claimed", claimed, late)
	}
	_, claimed, err = f.s.ClaimRenewal(f.ctx(), []byte("r2"), grace)
	f.must(err)
	f.clock.Add(grace)
	again, reclaimed, err := f.s.ClaimRenewal(f.ctx(), []byte("r2"), grace)
	f.must(err)
	if !claimed || !reclaimed || again.ID != s.ID {
		t.Errorf("a claim abandoned for the grace was not claimable again (%v, %v)", claimed, reclaimed)
	}
	_, _, err = f.s.ClaimRenewal(f.ctx(), []byte("r1"), grace)
	wantCode(t, err, feedback.ETokenRevoked) // a stolen cookie
	_, _, err = f.s.ClaimRenewal(f.ctx(), []byte("r2"), grace)
	wantCode(t, err, feedback.ENotFound) // its session is revoked
	_, _, err = f.s.ClaimRenewal(f.ctx(), []byte("unknown"), grace)
	wantCode(t, err, feedback.ENotFound)
	f.session(u, "b1", "q1")
	if got, _ := f.s.SessionByAccess(f.ctx(), []byte("b1")); got == nil || got.ProviderToken != nil || got.ProviderIDToken != nil {
		t.Errorf("a session without provider tokens reads back as %+v", got)
	}
}

func testAudit(t *testing.T, f *fixture) {
	ws := f.workspace("acme")
	u := f.user("ada")
	for i, action := range []string{feedback.AuditSignIn, feedback.AuditTokenCreated, feedback.AuditSignOut} {
		e := &feedback.AuditEntry{Actor: u.Email, ActorID: &u.ID, Action: action, Target: "t", IP: "192.0.2.1",
			Details: map[string]string{"n": string(rune('0' + i))}}
		if action == feedback.AuditTokenCreated {
			e.WorkspaceID = &ws
		}
		f.must(f.s.AppendAudit(f.ctx(), e))
		f.clock.Add(time.Minute)
	}
	got, total, err := f.s.AuditLog(f.ctx(), feedback.ListParams{Page: 1, PerPage: 2})
	f.must(err)
	if total != 3 || len(got) != 2 || got[0].Action != feedback.AuditSignOut || got[1].WorkspaceID == nil ||
		*got[1].WorkspaceID != ws || got[0].WorkspaceID != nil || got[0].Details["n"] != "2" || *got[0].ActorID != u.ID {
		t.Errorf("AuditLog page 1: %+v (total %d)", got, total)
	}
	from := f.clock.Now().Add(-2 * time.Minute)
	got, total, err = f.s.AuditLog(f.ctx(), feedback.ListParams{Page: 1, PerPage: 10, From: &from})
	f.must(err)
	if total != 2 || len(got) != 2 {
		t.Errorf("AuditLog from %v: %d entries (total %d), want 2", from, len(got), total)
	}
}

func testMembers(t *testing.T, f *fixture) {
	ws := f.workspace("acme")
	f.user("owner")
	ada := f.user("ada")
	code := []byte("invite-hash")
	inv, err := f.s.CreateInvite(f.ctx(), ws, feedback.RoleViewer, ada.ID, code, f.clock.Now().Add(time.Hour))
	f.must(err)
	if inv.Role != feedback.RoleViewer || !inv.ExpiresAt.Equal(f.clock.stored().Add(time.Hour)) {
		t.Errorf("CreateInvite: %+v", inv)
	}
	bob := f.user("bob")
	m, err := f.s.AcceptInvite(f.ctx(), code, bob.ID)
	f.must(err)
	if m.WorkspaceID != ws || m.Role != feedback.RoleViewer || m.Slug != "acme" {
		t.Errorf("AcceptInvite: %+v", m)
	}
	_, err = f.s.AcceptInvite(f.ctx(), code, ada.ID)
	wantCode(t, err, feedback.ENotFound) // used
	_, err = f.s.CreateInvite(f.ctx(), ws, feedback.RoleAdmin, "", []byte("late"), f.clock.Now().Add(time.Minute))
	f.must(err)
	f.clock.Add(2 * time.Minute)
	_, err = f.s.AcceptInvite(f.ctx(), []byte("late"), ada.ID)
	wantCode(t, err, feedback.ENotFound) // expired
	ms, err := f.s.Memberships(f.ctx(), bob.ID)
	f.must(err)
	if len(ms) != 1 || ms[0].Role != feedback.RoleViewer {
		t.Errorf("Memberships of a viewer: %+v", ms)
	}
	f.must(f.s.SetMemberRole(f.ctx(), ws, bob.ID, feedback.RoleAdmin))
	list, err := f.s.Members(f.ctx(), ws)
	f.must(err)
	if len(list) != 1 || list[0].UserID != bob.ID || list[0].Role != feedback.RoleAdmin || list[0].Email != "bob@example.com" {
		t.Errorf("Members: %+v", list)
	}
	f.must(f.s.RemoveMember(f.ctx(), ws, bob.ID))
	wantCode(t, f.s.RemoveMember(f.ctx(), ws, bob.ID), feedback.ENotFound)
	wantCode(t, f.s.SetMemberRole(f.ctx(), ws, bob.ID, feedback.RoleAdmin), feedback.ENotFound)
}
