package auth_test

import (
	"context"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/feedbackhq/feedback/shared/feedback"
)

// eachProvider runs fn with a rig of each provider, the test provider
// and the embedded one, on each store.
func eachProvider(t *testing.T, fn func(t *testing.T, r *rig)) {
	for name, start := range map[string]func(*testing.T, opener, ...func(*setup)) *rig{"oidctest": newRig, "embedded": newEmbeddedRig} {
		t.Run(name, func(t *testing.T) {
			eachStore(t, func(t *testing.T, open opener) {
				r := start(t, open)
				fn(t, r)
				if t.Failed() {
					t.Logf("the service's log:\n%s", r.Log)
				}
			})
		})
	}
}

// TestProviderEndsSession: each hourly renewal of the access cookie
// renews the provider's refresh token (which rotates); once the grant is
// revoked at the provider, the next renewal is refused, the session is
// revoked, and the browser is signed out.
func TestProviderEndsSession(t *testing.T) {
	eachProvider(t, func(t *testing.T, r *rig) {
		b := r.browser(t)
		r.signIn(t, b, "/")
		first := r.Tokens.last(t)
		r.Clock.Add(time.Hour + time.Minute)
		if res := r.api(t, b, "GET", "/api/v1/me"); res.StatusCode != http.StatusOK {
			t.Fatalf("GET /me after an hour answered %d; want a renewal", res.StatusCode)
		}
		renewed := r.Tokens.last(t)
		if renewed == first || r.Tokens.refreshCount() != 1 {
			t.Errorf("the renewal asked the provider %d times and kept the refresh token %v; want once, rotated",
				r.Tokens.refreshCount(), renewed == first)
		}
		if res := r.api(t, b, "GET", "/api/v1/me"); res.StatusCode != http.StatusOK || r.Tokens.refreshCount() != 1 {
			t.Errorf("a request within the hour answered %d and asked the provider again", res.StatusCode)
		}

		r.revokeGrant(t, renewed)
		if res := r.api(t, b, "GET", "/api/v1/me"); res.StatusCode != http.StatusOK {
			t.Errorf("within the hour the session answered %d; the provider is asked hourly", res.StatusCode)
		}
		r.Clock.Add(time.Hour + time.Minute)
		req, _ := http.NewRequest("GET", r.URL+"/api/v1/me", nil)
		res, err := b.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		if body := readBody(t, res); res.StatusCode != http.StatusUnauthorized || !strings.Contains(body, "identity provider") {
			t.Errorf("after the grant was revoked the renewal answered %d %s; want 401", res.StatusCode, body)
		}
		if b.lastSet("__Host-fb_refresh").MaxAge >= 0 {
			t.Errorf("the refused renewal did not clear the cookies")
		}
		if list := r.sessions(t); len(list) != 0 {
			t.Errorf("the session is still live: %+v", list)
		}
	})
}

// sessions returns the live sessions of the rig's (only) user.
func (r *rig) sessions(t *testing.T) []string {
	t.Helper()
	entries, _, err := r.Store.AuditLog(context.Background(), feedback.ListParams{Page: 1, PerPage: 1})
	if err != nil || len(entries) == 0 || entries[0].ActorID == nil {
		t.Fatalf("no sign-in in the audit log: %v", err)
	}
	list, err := r.Store.Sessions(context.Background(), *entries[len(entries)-1].ActorID)
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, s := range list {
		ids = append(ids, s.ID)
	}
	return ids
}

// TestProviderUnreachable: when the provider cannot be reached at the
// hourly renewal, the session goes on with its tokens, and the log says
// so.
func TestProviderUnreachable(t *testing.T) {
	eachStore(t, func(t *testing.T, open opener) {
		r := newRig(t, open)
		b := r.browser(t)
		r.signIn(t, b, "/")
		r.Tokens.down.Store(true)
		r.Clock.Add(time.Hour + time.Minute)
		if res := r.api(t, b, "GET", "/api/v1/me"); res.StatusCode != http.StatusOK {
			t.Errorf("with the provider unreachable the renewal answered %d; want the session kept", res.StatusCode)
		}
		if !strings.Contains(r.Log.String(), "level=WARN") || !strings.Contains(r.Log.String(), "without its identity provider") {
			t.Errorf("the log does not warn of the unreachable provider:\n%s", r.Log)
		}
		r.Tokens.down.Store(false)
		r.Clock.Add(time.Hour + time.Minute)
		if res := r.api(t, b, "GET", "/api/v1/me"); res.StatusCode != http.StatusOK || r.Tokens.refreshCount() != 1 {
			t.Errorf("once the provider is back the renewal answered %d after %d refreshes; want 200 after 1",
				res.StatusCode, r.Tokens.refreshCount())
		}
	})
}

// TestConcurrentRenewal: requests of one browser that all find the
// access cookie expired are all answered, and only one of them asks the
// provider for new tokens (a second would spend the rotated refresh
// token and end the session).
func TestConcurrentRenewal(t *testing.T) {
	eachStore(t, func(t *testing.T, open opener) {
		r := newRig(t, open)
		b := r.browser(t)
		r.signIn(t, b, "/")
		r.Clock.Add(time.Hour + time.Minute)
		var wg sync.WaitGroup
		codes := make([]int, 8)
		for i := range codes {
			wg.Go(func() { codes[i] = r.api(t, b, "GET", "/api/v1/me").StatusCode })
		}
		wg.Wait()
		for i, c := range codes {
			if c != http.StatusOK {
				t.Errorf("request %d answered %d", i, c)
			}
		}
		if n := r.Tokens.refreshCount(); n != 1 {
			t.Errorf("the concurrent renewals asked the provider %d times; want once", n)
		}
		r.Clock.Add(time.Hour + time.Minute)
		if res := r.api(t, b, "GET", "/api/v1/me"); res.StatusCode != http.StatusOK {
			t.Errorf("the next hour's renewal answered %d", res.StatusCode)
		}
	})
}

// TestRevokeSessionRevokesProviderToken: revoking a session from Active
// sessions revokes its provider refresh token too.
func TestRevokeSessionRevokesProviderToken(t *testing.T) {
	eachProvider(t, func(t *testing.T, r *rig) {
		phone, b := r.browser(t), r.browser(t)
		r.signIn(t, phone, "/")
		phoneToken := r.Tokens.last(t)
		r.signIn(t, b, "/")
		var list feedback.Page[feedback.Session]
		getJSON(t, r, b, "/api/v1/sessions", &list)
		var other string
		for _, s := range list.Data {
			if !s.Current {
				other = s.ID
			}
		}
		if res := r.api(t, b, "DELETE", "/api/v1/sessions/"+other); res.StatusCode != http.StatusNoContent {
			t.Fatalf("DELETE /sessions/%s answered %d", other, res.StatusCode)
		}
		if r.refreshWorks(t, phoneToken) {
			t.Errorf("the revoked session's refresh token still works at the provider")
		}
		if !r.refreshWorks(t, r.Tokens.last(t)) {
			t.Errorf("the current session's refresh token was revoked too")
		}
	})
}
