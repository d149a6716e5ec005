package http_test

import (
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	feedbackapi "github.com/feedbackhq/feedback/server/api"
	"github.com/feedbackhq/feedback/shared/feedback"
)

// invite has the owner invite someone with role and returns the
// invitation and the path of its link.
func (ts *TestServer) invite(t *testing.T, owner *browser, role string) (feedback.Invite, string) {
	t.Helper()
	var inv feedback.Invite
	owner.do(t, req{method: "POST", path: "/api/v1/invites", body: map[string]any{"role": role}}).expect(t, 201, "").decode(t, &inv)
	path, ok := strings.CutPrefix(inv.URL, ts.URL)
	if !ok || !strings.HasPrefix(path, "/auth/invite/fbi_") {
		t.Fatalf("POST /invites answers the link %q; want one under %s/auth/invite/", inv.URL, ts.URL)
	}
	return inv, path
}

// members returns "email role" of each member the owner lists.
func members(t *testing.T, owner *browser) []string {
	t.Helper()
	var page feedback.Page[feedback.Member]
	owner.do(t, req{method: "GET", path: "/api/v1/members"}).expect(t, 200, "").decode(t, &page)
	got := []string{}
	for _, m := range page.Data {
		got = append(got, m.Email+" "+m.Role)
	}
	return got
}

func TestInvite(t *testing.T) {
	eachStore(t, func(t *testing.T, ts *TestServer) {
		ts.NewTenant(t, "Acme")
		ada := ts.signIn(t, "ada") // the platform owner
		bob := ts.signIn(t, "bob")
		inv, path := ts.invite(t, ada, feedback.RoleViewer)
		now := ts.Clock.Now()
		if inv.ID == "" || inv.Role != feedback.RoleViewer || !inv.CreatedAt.Equal(now) || !inv.ExpiresAt.Equal(now.Add(feedbackapi.InviteTTL)) {
			t.Errorf("POST /invites: %+v; want a viewer's invitation valid for %s", inv, feedbackapi.InviteTTL)
		}

		t.Run("SignedOut", func(t *testing.T) {
			r := ts.do(t, req{method: "GET", path: path}).expect(t, http.StatusFound, "")
			if got, want := r.Header.Get("Location"), "/auth/login?return_to="+path; got != want {
				t.Errorf("Location = %q; want %q", got, want)
			}
		})
		t.Run("Accept", func(t *testing.T) {
			expectPage(t, bob.do(t, req{method: "GET", path: path}), 200, "/w/acme/")
			want := feedback.Member{UserID: bob.User.ID, Email: "bob@example.com", Role: feedback.RoleViewer, CreatedAt: feedback.NewTime(now)}
			var page feedback.Page[feedback.Member]
			ada.do(t, req{method: "GET", path: "/api/v1/members"}).expect(t, 200, "").decode(t, &page)
			if diff := cmp.Diff([]feedback.Member{want}, page.Data); diff != "" || page.Meta.Total != 1 {
				t.Errorf("GET /members (-want +got):\n%s(total %d)", diff, page.Meta.Total)
			}
			bob.do(t, req{method: "GET", path: "/api/v1/locations"}).expect(t, 200, "")
		})
		t.Run("Used", func(t *testing.T) {
			carol := ts.signIn(t, "carol")
			expectPage(t, carol.do(t, req{method: "GET", path: path}), 404, "used already")
			expectPage(t, bob.do(t, req{method: "GET", path: path}), 404, "used already")
			carol.do(t, req{method: "GET", path: "/api/v1/locations", header: inWorkspace("acme")}).expect(t, 404, feedback.ENotFound)
		})
		t.Run("Expired", func(t *testing.T) {
			_, late := ts.invite(t, ada, feedback.RoleAdmin)
			ts.Clock.Add(feedbackapi.InviteTTL + time.Second)
			dan := ts.signIn(t, "dan")
			expectPage(t, dan.do(t, req{method: "GET", path: late}), 404, "expired")
		})
		t.Run("Malformed", func(t *testing.T) {
			expectPage(t, bob.do(t, req{method: "GET", path: "/auth/invite/fbi_nothing"}), 404, "not valid")
		})
	})
}

func TestMembers(t *testing.T) {
	eachStore(t, func(t *testing.T, ts *TestServer) {
		ts.NewTenant(t, "Acme")
		ada := ts.signIn(t, "ada")
		bob := ts.signIn(t, "bob")
		inv, path := ts.invite(t, ada, feedback.RoleViewer)
		bob.do(t, req{method: "GET", path: path}).expect(t, 200, "")
		ts.Clock.Add(time.Minute) // orders the audit log
		member := "/api/v1/members/" + bob.User.ID
		location := map[string]any{"name": "Lobby"}

		bob.do(t, req{method: "POST", path: "/api/v1/locations", body: location}).expect(t, 403, feedback.EForbidden)
		ada.do(t, req{method: "PATCH", path: member, body: map[string]any{"role": "admin"}}).expect(t, 204, "")
		bob.do(t, req{method: "POST", path: "/api/v1/locations", body: location}).expect(t, 201, "")
		if got, want := members(t, ada), []string{"bob@example.com admin"}; !cmp.Equal(got, want) {
			t.Errorf("GET /members after the change: %v; want %v", got, want)
		}

		tests := []struct {
			name, method, path string
			body               any
			status             int
			code               string
		}{
			{"BadRole", "PATCH", member, map[string]any{"role": "owner"}, 422, feedback.EValidation},
			{"OwnerRole", "PATCH", member, map[string]any{"role": feedback.RoleOwner}, 422, feedback.EValidation},
			{"NoRole", "PATCH", member, map[string]any{}, 422, feedback.EValidation},
			{"UnknownField", "PATCH", member, map[string]any{"role": "admin", "email": "x@example.com"}, 422, feedback.EValidation},
			{"InviteBadRole", "POST", "/api/v1/invites", map[string]any{"role": "Admin"}, 422, feedback.EValidation},
			{"UnknownMember", "PATCH", "/api/v1/members/" + feedback.NewID(), map[string]any{"role": "admin"}, 404, feedback.ENotFound},
			{"PlatformOwner", "PATCH", "/api/v1/members/" + ada.User.ID, map[string]any{"role": "viewer"}, 404, feedback.ENotFound},
			{"Malformed", "DELETE", "/api/v1/members/nothing", nil, 404, feedback.ENotFound},
			{"RemoveUnknown", "DELETE", "/api/v1/members/" + feedback.NewID(), nil, 404, feedback.ENotFound},
		}
		for _, tt := range tests {
			t.Run(tt.name, func(t *testing.T) {
				r := ada.do(t, req{method: tt.method, path: tt.path, body: tt.body}).expect(t, tt.status, tt.code)
				if tt.status == 422 && tt.name != "UnknownField" {
					namesParam(t, r, "role")
				}
			})
		}

		t.Run("Audit", func(t *testing.T) {
			var page feedback.Page[feedback.AuditEntry]
			ada.do(t, req{method: "GET", path: "/api/v1/audit-log"}).expect(t, 200, "").decode(t, &page)
			var got []string
			for _, e := range page.Data {
				got = append(got, e.Action+" "+e.Target+" "+e.Details["role"])
			}
			want := []string{
				feedback.AuditMemberRole + " user:" + bob.User.ID + " admin",
				feedback.AuditMemberJoined + " user:" + bob.User.ID + " viewer",
				feedback.AuditMemberInvited + " invite:" + inv.ID + " viewer",
			}
			// Entries of the same instant come in id order, which is random
			// within a millisecond: compare as sets.
			slices.Sort(want)
			slices.Sort(got)
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("GET /audit-log (-want +got):\n%s", diff)
			}
		})
		t.Run("Remove", func(t *testing.T) {
			ada.do(t, req{method: "DELETE", path: member}).expect(t, 204, "")
			r := bob.do(t, req{method: "GET", path: "/api/v1/locations"})
			namesParam(t, r.expect(t, 400, feedback.EInvalidParameter), "Feedback-Workspace")
			bob.do(t, req{method: "GET", path: "/api/v1/locations", header: inWorkspace("acme")}).expect(t, 404, feedback.ENotFound)
			ada.do(t, req{method: "DELETE", path: member}).expect(t, 404, feedback.ENotFound)
			if got := members(t, ada); len(got) != 0 {
				t.Errorf("GET /members after the removal: %v; want none", got)
			}
		})
	})
}

// TestMembersOwnerOnly checks that only a platform owner's session may
// manage members: an API token and an admin are refused.
func TestMembersOwnerOnly(t *testing.T) {
	eachStore(t, func(t *testing.T, ts *TestServer) {
		acme := ts.NewTenant(t, "Acme")
		ada := ts.signIn(t, "ada")
		bob := ts.signIn(t, "bob")
		ts.addMember(t, acme.ID, bob.User.ID, feedback.RoleAdmin)
		tests := []struct {
			name, method, path string
			body               any
		}{
			{"List", "GET", "/api/v1/members", nil},
			{"ChangeRole", "PATCH", "/api/v1/members/" + bob.User.ID, map[string]any{"role": "viewer"}},
			{"Remove", "DELETE", "/api/v1/members/" + bob.User.ID, nil},
			{"Invite", "POST", "/api/v1/invites", map[string]any{"role": "admin"}},
		}
		for _, tt := range tests {
			t.Run(tt.name, func(t *testing.T) {
				ts.do(t, req{method: tt.method, path: tt.path, token: acme.Token, body: tt.body}).expect(t, 403, feedback.EForbidden)
				bob.do(t, req{method: tt.method, path: tt.path, body: tt.body}).expect(t, 403, feedback.EForbidden)
			})
		}
		if got, want := members(t, ada), []string{"bob@example.com admin"}; !cmp.Equal(got, want) {
			t.Errorf("after the refused requests GET /members lists %v; want %v", got, want)
		}
	})
}
