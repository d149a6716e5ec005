package http_test

import (
	"context"
	"strconv"
	"strings"
	"testing"

	"github.com/feedbackhq/feedback/shared/feedback"
)

// TestRevokedTokenEveryRead: once a token that this instance has served
// is revoked behind its back (as another instance would), its next read
// of any kind is refused with the revocation and nothing of what it read:
// a list's first page (whose token read is sent with the page), a page
// further down, a single item, a poster's image, and a path that does
// not exist. The refused requests give their count back to the
// workspace's budget, and another token of the workspace goes on.
func TestRevokedTokenEveryRead(t *testing.T) {
	eachStore(t, func(t *testing.T, ts *TestServer) {
		f := ts.newFixture(t, "Deferred")
		submit(t, ts, f.Hygiene.Code, map[string]any{"id": feedback.NewID(), "rating": 2}).expect(t, 201, "")
		otherID, other := ts.newToken(t, f.ID)
		reads := []string{"/api/v1/hygiene", "/api/v1/hygiene?page=2&per_page=1", "/api/v1/locations/" + f.Location.ID,
			"/api/v1/posters/" + f.Hygiene.ID + "/qr.svg", "/api/v1/summary", "/api/v1/locations/" + feedback.NewID()}
		for _, path := range reads { // this instance now knows the token
			ts.do(t, req{method: "GET", path: path, token: f.Token})
		}
		remaining := func() int {
			r := ts.do(t, req{method: "GET", path: "/api/v1/review", token: other}).expect(t, 200, "")
			n, err := strconv.Atoi(r.Header.Get("X-RateLimit-Remaining"))
			if err != nil {
				t.Fatalf("X-RateLimit-Remaining %q", r.Header.Get("X-RateLimit-Remaining"))
			}
			return n
		}
		before := remaining()
		tokens, err := ts.Store.Tokens(context.Background(), f.ID)
		if err != nil {
			t.Fatal(err)
		}
		for _, tok := range tokens {
			if tok.ID == otherID {
				continue
			}
			if _, err := ts.Store.RevokeToken(context.Background(), f.ID, tok.ID); err != nil {
				t.Fatal(err)
			}
		}
		for _, path := range reads {
			r := ts.do(t, req{method: "GET", path: path, token: f.Token}).expect(t, 401, feedback.ETokenRevoked)
			if body := string(r.Body); strings.Contains(body, f.Location.ID) || strings.Contains(body, "<svg") ||
				strings.Contains(body, `"data"`) {
				t.Errorf("GET %s: the refusal carries what the token read: %s", path, body)
			}
			if got := r.Header.Get("Content-Type"); got != "application/problem+json" {
				t.Errorf("GET %s: the refusal's Content-Type is %q", path, got)
			}
		}
		if after := remaining(); after != before-1 {
			t.Errorf("X-RateLimit-Remaining went from %d to %d over one request: the refused ones counted", before, after)
		}
	})
}
