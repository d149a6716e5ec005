package http_test

import (
	"bytes"
	"context"
	"net/http"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/feedbackhq/feedback/server"
	"github.com/feedbackhq/feedback/server/auth"
	"github.com/feedbackhq/feedback/server/secret"
	"github.com/feedbackhq/feedback/shared/feedback"
)

// browser is a signed-in dashboard user: the session cookies a browser
// holds, updated from the Set-Cookie of every answer. The test client
// talks plain HTTP, where a jar would drop the Secure __Host- cookies,
// so the Cookie header is set by hand.
type browser struct {
	ts              *TestServer
	User            *server.User
	Session         *server.Session
	access, refresh string
}

// signIn records a sign-in of subject, as the identity provider's
// callback does (the first user becomes platform owner), and starts a
// session of the user.
func (ts *TestServer) signIn(t *testing.T, subject string) *browser {
	t.Helper()
	u := &server.User{Issuer: "https://idp.example", Subject: subject, Email: subject + "@example.com"}
	if err := ts.Store.SignIn(context.Background(), u); err != nil {
		t.Fatal(err)
	}
	return ts.startSession(t, u)
}

// startSession starts a session of u, as a sign-in on another browser.
func (ts *TestServer) startSession(t *testing.T, u *server.User) *browser {
	t.Helper()
	access, hash := secret.NewToken("fba_")
	refresh, rhash := secret.NewToken("fbr_")
	now := ts.Clock.Now()
	s := &server.Session{UserID: u.ID, AccessHash: hash, AccessExpiresAt: now.Add(time.Hour), RefreshHash: rhash,
		RefreshExpiresAt: now.Add(30 * 24 * time.Hour), IP: "192.0.2.1", UserAgent: "Firefox"}
	if err := ts.Store.CreateSession(context.Background(), s); err != nil {
		t.Fatal(err)
	}
	return &browser{ts: ts, User: u, Session: s, access: access, refresh: refresh}
}

// addMember makes the user a member of the workspace with role, through
// an accepted invitation.
func (ts *TestServer) addMember(t *testing.T, ws, userID, role string) {
	t.Helper()
	ctx := context.Background()
	_, hash := secret.NewToken("fbi_")
	if _, err := ts.Store.CreateInvite(ctx, ws, role, "", hash, ts.Clock.Now().Add(time.Hour)); err != nil {
		t.Fatal(err)
	}
	if _, err := ts.Store.AcceptInvite(ctx, hash, userID); err != nil {
		t.Fatal(err)
	}
}

// cookie returns the Cookie header of the browser's cookies.
func (b *browser) cookie() string {
	var c []string
	if b.access != "" {
		c = append(c, auth.AccessCookie+"="+b.access)
	}
	if b.refresh != "" {
		c = append(c, auth.RefreshCookie+"="+b.refresh)
	}
	return strings.Join(c, "; ")
}

// do sends r with the browser's cookies and keeps the cookies the answer
// sets or clears.
func (b *browser) do(t *testing.T, r req) *result {
	t.Helper()
	h := r.header.Clone()
	if h == nil {
		h = http.Header{}
	}
	if c := b.cookie(); c != "" {
		h.Set("Cookie", c)
	}
	r.header = h
	res := b.ts.do(t, r)
	for _, c := range (&http.Response{Header: res.Header}).Cookies() {
		switch c.Name {
		case auth.AccessCookie:
			b.access = c.Value
		case auth.RefreshCookie:
			b.refresh = c.Value
		}
	}
	return res
}

// inWorkspace returns the header that names the workspace of a session
// request.
func inWorkspace(ws string) http.Header { return http.Header{"Feedback-Workspace": {ws}} }

// namesParam fails unless the problem of r names the parameter name.
func namesParam(t *testing.T, r *result, name string) {
	t.Helper()
	if !slices.ContainsFunc(r.problem(t).InvalidParams, func(p feedback.InvalidParam) bool { return p.Name == name }) {
		t.Errorf("the problem does not name %s: %s", name, r.Body)
	}
}

func TestMe(t *testing.T) {
	eachStore(t, func(t *testing.T, ts *TestServer) {
		beta, alpha := ts.NewTenant(t, "Beta"), ts.NewTenant(t, "Alpha")
		ada := ts.signIn(t, "ada")
		var me feedback.Me
		ada.do(t, req{method: "GET", path: "/api/v1/me"}).expect(t, 200, "").decode(t, &me)
		want := feedback.Me{ID: ada.User.ID, Email: "ada@example.com", PlatformOwner: true, Workspaces: []feedback.Membership{
			{WorkspaceID: alpha.ID, Slug: "alpha", Name: "Alpha", Role: feedback.RoleOwner},
			{WorkspaceID: beta.ID, Slug: "beta", Name: "Beta", Role: feedback.RoleOwner},
		}}
		if diff := cmp.Diff(want, me); diff != "" {
			t.Errorf("GET /me of the owner (-want +got):\n%s", diff)
		}

		bob := ts.signIn(t, "bob")
		me = feedback.Me{}
		bob.do(t, req{method: "GET", path: "/api/me"}).expect(t, 200, "").decode(t, &me)
		if me.PlatformOwner || me.Workspaces == nil || len(me.Workspaces) != 0 {
			t.Errorf("GET /me of a user of no workspace: %+v; want no owner, workspaces []", me)
		}
	})
}

func TestSessions(t *testing.T) {
	eachStore(t, func(t *testing.T, ts *TestServer) {
		ada := ts.signIn(t, "ada")
		ts.Clock.Add(time.Minute)
		other := ts.startSession(t, ada.User)
		var page feedback.Page[feedback.Session]
		ada.do(t, req{method: "GET", path: "/api/v1/sessions"}).expect(t, 200, "").decode(t, &page)
		if len(page.Data) != 2 || page.Meta.Total != 2 || page.Data[0].ID != other.Session.ID || page.Data[0].Current ||
			page.Data[1].ID != ada.Session.ID || !page.Data[1].Current || page.Data[1].UserAgent != "Firefox" {
			t.Fatalf("GET /sessions: %+v; want the other session, then the current one", page)
		}

		t.Run("RevokeOther", func(t *testing.T) {
			ada.do(t, req{method: "DELETE", path: "/api/v1/sessions/" + other.Session.ID}).expect(t, 204, "")
			other.do(t, req{method: "GET", path: "/api/v1/me"}).expect(t, 401, feedback.ETokenRevoked)
			ada.do(t, req{method: "DELETE", path: "/api/v1/sessions/" + other.Session.ID}).expect(t, 404, feedback.ENotFound)
		})
		t.Run("OfAnotherUser", func(t *testing.T) {
			bob := ts.signIn(t, "bob")
			bob.do(t, req{method: "DELETE", path: "/api/v1/sessions/" + ada.Session.ID}).expect(t, 404, feedback.ENotFound)
			bob.do(t, req{method: "DELETE", path: "/api/v1/sessions/nothing"}).expect(t, 404, feedback.ENotFound)
		})
		t.Run("RevokeCurrent", func(t *testing.T) {
			old := ada.cookie()
			r := ada.do(t, req{method: "DELETE", path: "/api/v1/sessions/" + ada.Session.ID}).expect(t, 204, "")
			cleared := map[string]bool{}
			for _, c := range (&http.Response{Header: r.Header}).Cookies() {
				cleared[c.Name] = c.Value == "" && c.MaxAge < 0
			}
			if !cleared[auth.AccessCookie] || !cleared[auth.RefreshCookie] {
				t.Errorf("revoking the current session sets %q; want both cookies cleared", r.Header.Values("Set-Cookie"))
			}
			ts.do(t, req{method: "GET", path: "/api/v1/me", header: http.Header{"Cookie": {old}}}).expect(t, 401, feedback.ETokenRevoked)
		})
	})
}

func TestSessionRenewal(t *testing.T) {
	eachStore(t, func(t *testing.T, ts *TestServer) {
		ada := ts.signIn(t, "ada")
		oldAccess, oldRefresh := ada.access, ada.refresh
		ts.Clock.Add(time.Hour + time.Second)
		r := ada.do(t, req{method: "GET", path: "/api/v1/me"}).expect(t, 200, "")
		if len(r.Header.Values("Set-Cookie")) != 2 || ada.access == oldAccess || ada.refresh == oldRefresh || ada.access == "" || ada.refresh == "" {
			t.Fatalf("a renewal sets %q; want new values of both cookies", r.Header.Values("Set-Cookie"))
		}
		r = ada.do(t, req{method: "GET", path: "/api/v1/me"}).expect(t, 200, "")
		if got := r.Header.Values("Set-Cookie"); len(got) != 0 {
			t.Errorf("a request with a valid access cookie sets %q", got)
		}
		onlyRefresh := &browser{ts: ts, User: ada.User, refresh: ada.refresh}
		onlyRefresh.do(t, req{method: "GET", path: "/api/v1/sessions"}).expect(t, 200, "")
		if onlyRefresh.access == "" {
			t.Error("a request with only the refresh cookie is not renewed")
		}

		t.Run("ReusedRefresh", func(t *testing.T) {
			ts.Clock.Add(auth.Grace + time.Second)
			stolen := &browser{ts: ts, access: oldAccess, refresh: oldRefresh}
			stolen.do(t, req{method: "GET", path: "/api/v1/me"}).expect(t, 401, feedback.ETokenRevoked)
			onlyRefresh.do(t, req{method: "GET", path: "/api/v1/me"}).expect(t, 401, feedback.ETokenRevoked)
			if list, err := ts.Store.Sessions(context.Background(), ada.User.ID); err != nil || len(list) != 0 {
				t.Errorf("after a reused refresh cookie the user has the sessions %+v (%v); want none", list, err)
			}
		})
		t.Run("Expired", func(t *testing.T) {
			late := ts.startSession(t, ada.User)
			ts.Clock.Add(30*24*time.Hour + time.Second)
			late.do(t, req{method: "GET", path: "/api/v1/me"}).expect(t, 401, feedback.EUnauthenticated)
		})
	})
}

func TestTokens(t *testing.T) {
	eachStore(t, func(t *testing.T, ts *TestServer) {
		acme := ts.NewTenant(t, "Acme")
		ada := ts.signIn(t, "ada")
		ts.Clock.Add(time.Minute) // after the tenant's token
		var tok struct {
			feedback.APIToken
			Token string `json:"token"`
		}
		r := ada.do(t, req{method: "POST", path: "/api/v1/tokens", body: map[string]any{"name": " Export "}}).expect(t, 201, "")
		r.decode(t, &tok)
		if r.Header.Get("Location") != "/api/v1/tokens/"+tok.ID || tok.Name != "Export" || !secret.ValidToken(secret.APITokenPrefix, tok.Token) ||
			tok.Prefix != tok.Token[:8] || tok.LastUsedAt != nil || tok.RevokedAt != nil {
			t.Fatalf("POST /tokens: Location %q, %+v", r.Header.Get("Location"), tok)
		}
		ts.do(t, req{method: "GET", path: "/api/v1/hygiene", token: tok.Token}).expect(t, 200, "")

		var page feedback.Page[feedback.APIToken]
		r = ada.do(t, req{method: "GET", path: "/api/v1/tokens"}).expect(t, 200, "")
		r.decode(t, &page)
		if len(page.Data) != 2 || page.Data[0].ID != tok.ID || page.Data[0].LastUsedAt == nil || page.Data[1].Name != "test" {
			t.Errorf("GET /tokens: %+v; want the new token, used, then the tenant's", page.Data)
		}
		if bytes.Contains(r.Body, []byte(tok.Token)) || bytes.Contains(r.Body, []byte(`"token"`)) {
			t.Errorf("GET /tokens shows a token's value: %s", r.Body)
		}

		ada.do(t, req{method: "DELETE", path: "/api/v1/tokens/" + tok.ID}).expect(t, 204, "")
		ts.do(t, req{method: "GET", path: "/api/v1/hygiene", token: tok.Token}).expect(t, 401, feedback.ETokenRevoked)
		ts.do(t, req{method: "GET", path: "/api/v1/hygiene", token: acme.Token}).expect(t, 200, "")
		var after feedback.Page[feedback.APIToken]
		ada.do(t, req{method: "GET", path: "/api/v1/tokens"}).expect(t, 200, "").decode(t, &after)
		if len(after.Data) != 2 || after.Data[0].RevokedAt == nil {
			t.Errorf("after the revocation GET /tokens lists %+v; want the token revoked", after.Data)
		}
		ada.do(t, req{method: "DELETE", path: "/api/v1/tokens/" + tok.ID}).expect(t, 204, "")

		tests := []struct {
			name   string
			method string
			path   string
			body   any
			status int
			code   string
		}{
			{"NameRequired", "POST", "/api/v1/tokens", map[string]any{"name": "  "}, 422, feedback.EValidation},
			{"NameTooLong", "POST", "/api/v1/tokens", map[string]any{"name": strings.Repeat("n", 101)}, 422, feedback.EValidation},
			{"UnknownField", "POST", "/api/v1/tokens", map[string]any{"name": "x", "scope": "all"}, 422, feedback.EValidation},
			{"RevokeUnknown", "DELETE", "/api/v1/tokens/" + feedback.NewID(), nil, 404, feedback.ENotFound},
			{"RevokeMalformed", "DELETE", "/api/v1/tokens/nothing", nil, 404, feedback.ENotFound},
		}
		for _, tt := range tests {
			t.Run(tt.name, func(t *testing.T) {
				ada.do(t, req{method: tt.method, path: tt.path, body: tt.body}).expect(t, tt.status, tt.code)
			})
		}
		t.Run("OfAnotherWorkspace", func(t *testing.T) {
			other := ts.NewTenant(t, "Other")
			id, _ := ts.newToken(t, other.ID)
			ada.do(t, req{method: "DELETE", path: "/api/v1/tokens/" + id, header: inWorkspace("acme")}).expect(t, 404, feedback.ENotFound)
		})
	})
}

func TestAuditLog(t *testing.T) {
	eachStore(t, func(t *testing.T, ts *TestServer) {
		acme := ts.NewTenant(t, "Acme")
		ada := ts.signIn(t, "ada")
		t0 := ts.Clock.Now()
		var tok feedback.APIToken
		ada.do(t, req{method: "POST", path: "/api/v1/tokens", body: map[string]any{"name": "Export"}}).expect(t, 201, "").decode(t, &tok)
		ts.Clock.Add(10 * time.Minute)
		ada.do(t, req{method: "DELETE", path: "/api/v1/tokens/" + tok.ID}).expect(t, 204, "")
		ts.Clock.Add(10 * time.Minute)
		other := ts.startSession(t, ada.User)
		ada.do(t, req{method: "DELETE", path: "/api/v1/sessions/" + other.Session.ID}).expect(t, 204, "")

		var page feedback.Page[feedback.AuditEntry]
		ada.do(t, req{method: "GET", path: "/api/v1/audit-log"}).expect(t, 200, "").decode(t, &page)
		var got []string
		for _, e := range page.Data {
			ws := "-"
			if e.WorkspaceID != nil {
				ws = *e.WorkspaceID
			}
			if e.Actor != "ada@example.com" || e.ActorID == nil || *e.ActorID != ada.User.ID || e.IP == "" {
				t.Errorf("entry %s: actor %q %v, ip %q; want ada's", e.Action, e.Actor, e.ActorID, e.IP)
			}
			got = append(got, e.Action+" "+e.Target+" "+ws)
		}
		want := []string{
			feedback.AuditSessionRevoked + " session:" + other.Session.ID + " -",
			feedback.AuditTokenRevoked + " token:" + tok.ID + " " + acme.ID,
			feedback.AuditTokenCreated + " token:" + tok.ID + " " + acme.ID,
		}
		if diff := cmp.Diff(want, got); diff != "" || page.Meta.Total != 3 {
			t.Fatalf("GET /audit-log (-want +got):\n%s(total %d)", diff, page.Meta.Total)
		}
		if d := page.Data[2].Details; d["name"] != "Export" {
			t.Errorf("token.created details %v; want the token's name", d)
		}

		at := func(d time.Duration) string { return t0.Add(d).UTC().Format(time.RFC3339) }
		tests := []struct {
			name, query string
			actions     []string
			meta        feedback.Meta
		}{
			{"Page2", "per_page=2&page=2", []string{feedback.AuditTokenCreated}, feedback.Meta{Total: 3, Page: 2, PerPage: 2, Pages: 2}},
			{"From", "from=" + at(5*time.Minute), []string{feedback.AuditSessionRevoked, feedback.AuditTokenRevoked},
				feedback.Meta{Total: 2, Page: 1, PerPage: 50, Pages: 1}},
			{"To", "to=" + at(15*time.Minute), []string{feedback.AuditTokenRevoked, feedback.AuditTokenCreated},
				feedback.Meta{Total: 2, Page: 1, PerPage: 50, Pages: 1}},
			{"FromTo", "from=" + at(5*time.Minute) + "&to=" + at(15*time.Minute), []string{feedback.AuditTokenRevoked},
				feedback.Meta{Total: 1, Page: 1, PerPage: 50, Pages: 1}},
		}
		for _, tt := range tests {
			t.Run(tt.name, func(t *testing.T) {
				var page feedback.Page[feedback.AuditEntry]
				ada.do(t, req{method: "GET", path: "/api/v1/audit-log?" + tt.query}).expect(t, 200, "").decode(t, &page)
				var actions []string
				for _, e := range page.Data {
					actions = append(actions, e.Action)
				}
				if !slices.Equal(actions, tt.actions) || page.Meta != tt.meta {
					t.Errorf("got %v %+v; want %v %+v", actions, page.Meta, tt.actions, tt.meta)
				}
			})
		}
		t.Run("FromAfterTo", func(t *testing.T) {
			r := ada.do(t, req{method: "GET", path: "/api/v1/audit-log?from=" + at(time.Hour) + "&to=" + at(0)})
			namesParam(t, r.expect(t, 400, feedback.EInvalidParameter), "from")
		})
	})
}

// TestAccountNeedsSession checks that no API token, however valid, can
// use the account endpoints.
func TestAccountNeedsSession(t *testing.T) {
	eachStore(t, func(t *testing.T, ts *TestServer) {
		acme := ts.NewTenant(t, "Acme")
		id, _ := ts.newToken(t, acme.ID)
		tests := []struct {
			name, method, path string
			body               any
		}{
			{"Me", "GET", "/api/v1/me", nil},
			{"Sessions", "GET", "/api/v1/sessions", nil},
			{"RevokeSession", "DELETE", "/api/v1/sessions/" + feedback.NewID(), nil},
			{"AuditLog", "GET", "/api/v1/audit-log", nil},
			{"Tokens", "GET", "/api/v1/tokens", nil},
			{"CreateToken", "POST", "/api/v1/tokens", map[string]any{"name": "escalate"}},
			{"RevokeToken", "DELETE", "/api/v1/tokens/" + id, nil},
		}
		for _, tt := range tests {
			t.Run(tt.name, func(t *testing.T) {
				ts.do(t, req{method: tt.method, path: tt.path, token: acme.Token, body: tt.body}).expect(t, 403, feedback.EForbidden)
			})
		}
		ts.do(t, req{method: "GET", path: "/api/v1/hygiene", token: acme.Token}).expect(t, 200, "") // the token still works
	})
}

// TestRoles checks what a user who is not a platform owner may do, as a
// member of no workspace, a viewer and an admin.
func TestRoles(t *testing.T) {
	eachStore(t, func(t *testing.T, ts *TestServer) {
		acme, beta := ts.NewTenant(t, "Acme"), ts.NewTenant(t, "Beta")
		ts.signIn(t, "ada") // the platform owner
		bob := ts.signIn(t, "bob")
		location := map[string]any{"name": "Lobby"}

		t.Run("NoMember", func(t *testing.T) {
			r := bob.do(t, req{method: "GET", path: "/api/v1/locations"})
			namesParam(t, r.expect(t, 400, feedback.EInvalidParameter), "Feedback-Workspace")
			bob.do(t, req{method: "GET", path: "/api/v1/locations", header: inWorkspace("acme")}).expect(t, 404, feedback.ENotFound)
			bob.do(t, req{method: "GET", path: "/api/v1/tokens", header: inWorkspace(acme.ID)}).expect(t, 404, feedback.ENotFound)
			bob.do(t, req{method: "GET", path: "/api/v1/audit-log"}).expect(t, 403, feedback.EForbidden)
			bob.do(t, req{method: "GET", path: "/api/v1/sessions"}).expect(t, 200, "")
		})
		t.Run("Viewer", func(t *testing.T) {
			ts.addMember(t, acme.ID, bob.User.ID, feedback.RoleViewer)
			bob.do(t, req{method: "GET", path: "/api/v1/locations"}).expect(t, 200, "") // the only workspace
			bob.do(t, req{method: "POST", path: "/api/v1/locations", body: location}).expect(t, 403, feedback.EForbidden)
			bob.do(t, req{method: "GET", path: "/api/v1/tokens"}).expect(t, 403, feedback.EForbidden)
			bob.do(t, req{method: "GET", path: "/api/v1/audit-log"}).expect(t, 403, feedback.EForbidden)
			bob.do(t, req{method: "GET", path: "/api/v1/locations", header: inWorkspace("beta")}).expect(t, 404, feedback.ENotFound)
		})
		t.Run("Admin", func(t *testing.T) {
			ts.addMember(t, beta.ID, bob.User.ID, feedback.RoleAdmin)
			r := bob.do(t, req{method: "GET", path: "/api/v1/locations"})
			namesParam(t, r.expect(t, 400, feedback.EInvalidParameter), "Feedback-Workspace")
			bob.do(t, req{method: "POST", path: "/api/v1/locations", body: location, header: inWorkspace("beta")}).expect(t, 201, "")
			bob.do(t, req{method: "POST", path: "/api/v1/locations", body: location, header: inWorkspace("acme")}).expect(t, 403, feedback.EForbidden)
			bob.do(t, req{method: "POST", path: "/api/v1/tokens", body: map[string]any{"name": "x"}, header: inWorkspace("beta")}).
				expect(t, 403, feedback.EForbidden)
			var me feedback.Me
			bob.do(t, req{method: "GET", path: "/api/v1/me"}).expect(t, 200, "").decode(t, &me)
			var roles []string
			for _, m := range me.Workspaces {
				roles = append(roles, m.Slug+" "+m.Role)
			}
			if want := []string{"acme viewer", "beta admin"}; !slices.Equal(roles, want) {
				t.Errorf("GET /me lists %v; want %v", roles, want)
			}
		})
	})
}

// TestWorkspaceHeader checks how a session request of a user of several
// workspaces names one.
func TestWorkspaceHeader(t *testing.T) {
	eachStore(t, func(t *testing.T, ts *TestServer) {
		acme, beta := ts.newFixture(t, "Acme"), ts.newFixture(t, "Beta")
		ada := ts.signIn(t, "ada")
		tests := []struct {
			name, header, want string
		}{
			{"Slug", "beta", beta.Location.ID},
			{"ID", beta.ID, beta.Location.ID},
			{"UpperCaseID", strings.ToUpper(acme.ID), acme.Location.ID},
		}
		for _, tt := range tests {
			t.Run(tt.name, func(t *testing.T) {
				var page feedback.Page[feedback.Location]
				ada.do(t, req{method: "GET", path: "/api/v1/locations", header: inWorkspace(tt.header)}).expect(t, 200, "").decode(t, &page)
				if len(page.Data) != 1 || page.Data[0].ID != tt.want {
					t.Errorf("got %+v; want the location %s", page.Data, tt.want)
				}
			})
		}
		t.Run("Missing", func(t *testing.T) {
			r := ada.do(t, req{method: "GET", path: "/api/v1/locations"})
			namesParam(t, r.expect(t, 400, feedback.EInvalidParameter), "Feedback-Workspace")
		})
		t.Run("Unknown", func(t *testing.T) {
			ada.do(t, req{method: "GET", path: "/api/v1/locations", header: inWorkspace("gamma")}).expect(t, 404, feedback.ENotFound)
		})
		t.Run("IgnoredByTokens", func(t *testing.T) {
			var page feedback.Page[feedback.Location]
			ts.do(t, req{method: "GET", path: "/api/v1/locations", token: acme.Token, header: inWorkspace("beta")}).
				expect(t, 200, "").decode(t, &page)
			if len(page.Data) != 1 || page.Data[0].ID != acme.Location.ID {
				t.Errorf("a token naming another workspace lists %+v; want its own workspace's", page.Data)
			}
		})
	})
}

// TestSessionCrossOrigin checks that a session cannot change anything
// from another site, while a token, which no browser sends by itself, can.
func TestSessionCrossOrigin(t *testing.T) {
	eachStore(t, func(t *testing.T, ts *TestServer) {
		acme := ts.NewTenant(t, "Acme")
		ada := ts.signIn(t, "ada")
		site := func(s string) http.Header { return http.Header{"Sec-Fetch-Site": {s}} }
		token := map[string]any{"name": "Export"}
		ada.do(t, req{method: "POST", path: "/api/v1/tokens", body: token, header: site("cross-site")}).expect(t, 403, feedback.EForbidden)
		ada.do(t, req{method: "DELETE", path: "/api/v1/sessions/" + ada.Session.ID, header: site("cross-site")}).expect(t, 403, feedback.EForbidden)
		ada.do(t, req{method: "GET", path: "/api/v1/tokens", header: site("cross-site")}).expect(t, 200, "")
		ada.do(t, req{method: "POST", path: "/api/v1/tokens", body: token, header: site("same-origin")}).expect(t, 201, "")
		ts.do(t, req{method: "POST", path: "/api/v1/locations", token: acme.Token, body: map[string]any{"name": "Lobby"},
			header: site("cross-site")}).expect(t, 201, "")
	})
}

// valuePattern is the shape of a session cookie's value.
var valuePattern = regexp.MustCompile(`^fb[ar]_[0-9A-Za-z]{40}$`)

func TestSessionCookies(t *testing.T) {
	eachStore(t, func(t *testing.T, ts *TestServer) {
		ada := ts.signIn(t, "ada")
		ts.Clock.Add(2 * time.Hour)
		r := ada.do(t, req{method: "GET", path: "/api/v1/sessions"}).expect(t, 200, "")
		for _, c := range (&http.Response{Header: r.Header}).Cookies() {
			if !c.Secure || !c.HttpOnly || c.SameSite != http.SameSiteStrictMode || c.Path != "/" || c.Domain != "" ||
				!valuePattern.MatchString(c.Value) || c.MaxAge <= 0 {
				t.Errorf("renewed cookie %s", c)
			}
		}
	})
}
