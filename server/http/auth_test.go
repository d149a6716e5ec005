package http_test

import (
	"context"
	"net/http"
	"strings"
	"testing"

	"github.com/feedbackhq/feedback/shared/feedback"
)

func TestAuthentication(t *testing.T) {
	eachStore(t, func(t *testing.T, ts *TestServer) {
		a := ts.NewTenant(t, "Auth")
		tests := []struct {
			name, header, code, challenge string
		}{
			{"missing", "", feedback.EUnauthenticated, `Bearer realm="feedback"`},
			{"basic scheme", "Basic dXNlcjpwYXNz", feedback.EInvalidToken, `error="invalid_token"`},
			{"malformed", "Bearer abc", feedback.EInvalidToken, `error="invalid_token"`},
			{"unknown", "Bearer fbk_" + strings.Repeat("A", 40), feedback.EInvalidToken, `error="invalid_token"`},
			{"kiosk credential", "Bearer fbkk_" + strings.Repeat("A", 40), feedback.EInvalidToken, `error="invalid_token"`},
		}
		for _, tt := range tests {
			t.Run(tt.name, func(t *testing.T) {
				r := ts.do(t, req{method: "GET", path: "/api/v1/review", header: http.Header{"Authorization": {tt.header}}})
				r.expect(t, 401, tt.code)
				if got := r.Header.Get("WWW-Authenticate"); !strings.Contains(got, tt.challenge) {
					t.Errorf("WWW-Authenticate = %q; want it to contain %q", got, tt.challenge)
				}
				if r.Header.Get("X-RateLimit-Limit") == "" {
					t.Error("a 401 lacks the rate-limit headers")
				}
			})
		}
		t.Run("lower-case scheme", func(t *testing.T) {
			ts.do(t, req{method: "GET", path: "/api/v1/review", header: http.Header{"Authorization": {"bearer " + a.Token}}}).expect(t, 200, "")
		})
		t.Run("api alias", func(t *testing.T) {
			ts.do(t, req{method: "GET", path: "/api/review", token: a.Token}).expect(t, 200, "")
		})
	})
}

func TestTokenRevocation(t *testing.T) {
	eachStore(t, func(t *testing.T, ts *TestServer) {
		a := ts.NewTenant(t, "Revoke")
		other, otherTok := ts.newToken(t, a.ID)
		ts.do(t, req{method: "GET", path: "/api/v1/hygiene", token: a.Token}).expect(t, 200, "")
		tokens, err := ts.Store.Tokens(context.Background(), a.ID)
		if err != nil {
			t.Fatal(err)
		}
		for _, tok := range tokens {
			if tok.ID != other {
				if _, err := ts.Store.RevokeToken(context.Background(), a.ID, tok.ID); err != nil {
					t.Fatal(err)
				}
			}
		}
		r := ts.do(t, req{method: "GET", path: "/api/v1/hygiene", token: a.Token}).expect(t, 401, feedback.ETokenRevoked)
		if !strings.Contains(r.Header.Get("WWW-Authenticate"), `error="invalid_token"`) {
			t.Errorf("WWW-Authenticate = %q", r.Header.Get("WWW-Authenticate"))
		}
		ts.do(t, req{method: "GET", path: "/api/v1/hygiene", token: otherTok}).expect(t, 200, "")
	})
}

func TestTokenLastUsed(t *testing.T) {
	eachStore(t, testTokenLastUsed)
}

// testTokenLastUsed: a request records its token's use, at most once a
// minute, also when it put off the token's read (PostgreSQL's lists).
func testTokenLastUsed(t *testing.T, ts *TestServer) {
	a := ts.NewTenant(t, "Touch")
	ctx := context.Background()
	lastUsed := func() string {
		tokens, err := ts.Store.Tokens(ctx, a.ID)
		if err != nil || len(tokens) != 1 {
			t.Fatalf("Tokens: %v %v", tokens, err)
		}
		if tokens[0].LastUsedAt == nil {
			return ""
		}
		return tokens[0].LastUsedAt.UTC().String()
	}
	if got := lastUsed(); got != "" {
		t.Fatalf("a new token has last_used_at %s", got)
	}
	ts.do(t, req{method: "GET", path: "/api/v1/review", token: a.Token}).expect(t, 200, "")
	first := lastUsed()
	if first != ts.Clock.Now().UTC().String() {
		t.Fatalf("last_used_at = %q; want %s", first, ts.Clock.Now())
	}
	for range 2 {
		ts.Clock.Add(61_000_000_000)
		ts.do(t, req{method: "GET", path: "/api/v1/review", token: a.Token}).expect(t, 200, "")
		if got := lastUsed(); got != ts.Clock.Now().UTC().String() {
			t.Errorf("last_used_at is %s a minute later, want %s", got, ts.Clock.Now().UTC())
		}
	}
}
