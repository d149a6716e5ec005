package idp

import (
	"context"
	"strings"
	"testing"
	"time"
)

// TestHashPassword checks the real parameters, and logs what a hash costs
// here.
func TestHashPassword(t *testing.T) {
	ctx := context.Background()
	start := time.Now()
	h, err := hashWith(ctx, "correct horse battery", defaultHashParams)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("argon2id m=64 MiB t=3 p=4: %v per hash", time.Since(start))
	if !strings.HasPrefix(h, "$argon2id$v=19$m=65536,t=3,p=4$") {
		t.Errorf("hash %q does not record RFC 9106's second option", h)
	}
	for pw, want := range map[string]bool{"correct horse battery": true, "correct horse batterY": false, "": false} {
		if ok, err := verifyPassword(ctx, h, pw); ok != want || err != nil {
			t.Errorf("verifyPassword(%q) = %v, %v; want %v", pw, ok, err, want)
		}
	}
	for _, bad := range []string{"", "$argon2i$v=19$m=65536,t=3,p=4$c2FsdA$aGFzaA", strings.Replace(h, "v=19", "v=16", 1),
		strings.TrimSuffix(h, h[len(h)-4:])} {
		if _, err := verifyPassword(ctx, bad, "x"); err == nil {
			t.Errorf("verifyPassword accepted the hash %q", bad)
		}
	}
}

func TestPasswordProblem(t *testing.T) {
	for _, c := range []struct {
		name, password string
		ok             bool
	}{
		{"Twelve", "abcdefghijkl", true},
		{"Eleven", "abcdefghijk", false},
		{"TwelveRunes", "ééééééééééé€", true},
		{"Email", "Ann@Example.com", false},
		{"EmailSpaced", " ann@example.com ", false},
		{"TooLong", strings.Repeat("a", 1025), false},
	} {
		t.Run(c.name, func(t *testing.T) {
			if got := passwordProblem("ann@example.com", c.password); (got == "") != c.ok {
				t.Errorf("passwordProblem(%q) = %q, want ok %v", c.password, got, c.ok)
			}
		})
	}
}
