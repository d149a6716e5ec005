package secret_test

import (
	"bytes"
	"strings"
	"testing"

	"github.com/feedbackhq/feedback/server/secret"
	"github.com/feedbackhq/feedback/shared/feedback"
)

func TestKeyringSealOpen(t *testing.T) {
	oldKey := secret.NewKey()
	old, _ := secret.ParseKeyring(oldKey)
	sealed := old.Seal([]byte("whsec_abc"), []byte("webhook:1"))

	rotated, err := secret.ParseKeyring(secret.NewKey() + "," + oldKey)
	if err != nil {
		t.Fatal(err)
	}
	got, err := rotated.Open(sealed, []byte("webhook:1"))
	if err != nil || string(got) != "whsec_abc" {
		t.Fatalf("Open after rotation = %q, %v; want whsec_abc", got, err)
	}
	if _, err := rotated.Open(sealed, []byte("webhook:2")); err == nil {
		t.Error("Open with another aad succeeded; want ErrUnsealable")
	}
	tampered := bytes.Clone(sealed)
	tampered[len(tampered)-1] ^= 1
	if _, err := rotated.Open(tampered, []byte("webhook:1")); err == nil {
		t.Error("Open of a tampered value succeeded")
	}
	other, _ := secret.ParseKeyring(secret.NewKey())
	if _, err := other.Open(sealed, []byte("webhook:1")); err == nil {
		t.Error("Open with an unrelated key succeeded")
	}
	if bytes.Contains(sealed, []byte("whsec_abc")) {
		t.Error("sealed value contains the plaintext")
	}
}

func TestParseKeyringErrors(t *testing.T) {
	for _, s := range []string{"", "not base64!", "c2hvcnQ=", secret.NewKey() + ",x"} {
		if _, err := secret.ParseKeyring(s); err == nil {
			t.Errorf("ParseKeyring(%q) succeeded; want an error", s)
		}
	}
}

func TestLoadOrCreateKeyFile(t *testing.T) {
	path := t.TempDir() + "/sub/secret.key"
	a, err := secret.LoadOrCreateKeyFile(path)
	if err != nil {
		t.Fatal(err)
	}
	b, err := secret.LoadOrCreateKeyFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := b.Open(a.Seal([]byte("x"), nil), nil); err != nil {
		t.Fatalf("the second load opens nothing the first sealed: %v", err)
	}
}

func TestToken(t *testing.T) {
	seen := map[string]bool{}
	for range 100 {
		v, h := secret.NewToken(secret.APITokenPrefix)
		if !secret.ValidToken(secret.APITokenPrefix, v) {
			t.Fatalf("ValidToken(%q) = false", v)
		}
		if secret.ValidToken(secret.KioskTokenPrefix, v) {
			t.Fatalf("an API token passes as a kiosk credential: %q", v)
		}
		if !bytes.Equal(h, secret.Hash(v)) || seen[v] {
			t.Fatalf("hash mismatch or repeated token %q", v)
		}
		seen[v] = true
	}
	for _, bad := range []string{"", "fbk_", "fbk_" + strings.Repeat("a", 39), "fbk_" + strings.Repeat("a", 41),
		"fbk_" + strings.Repeat("a", 39) + "-", "xxx_" + strings.Repeat("a", 40)} {
		if secret.ValidToken(secret.APITokenPrefix, bad) {
			t.Errorf("ValidToken(%q) = true", bad)
		}
	}
}

func TestPosterCode(t *testing.T) {
	key := secret.NewPosterKey()
	id := feedback.NewID()
	code := secret.SignPoster(key, id)
	got, mac, ok := secret.ParsePosterCode(code)
	if !ok || got != id || !secret.VerifyPoster(key, got, mac) {
		t.Fatalf("round trip of %q: id %q ok %v", code, got, ok)
	}
	if secret.VerifyPoster(secret.NewPosterKey(), got, mac) {
		t.Error("a code verifies under another workspace's key")
	}
	for i := range code {
		b := []byte(code)
		b[i] = flip(b[i])
		pid, m, ok := secret.ParsePosterCode(string(b))
		if ok && secret.VerifyPoster(key, pid, m) {
			t.Errorf("code tampered at %d still verifies", i)
		}
	}
}

func flip(c byte) byte {
	if c == 'A' {
		return 'B'
	}
	return 'A'
}

func TestPairingCode(t *testing.T) {
	code, hash := secret.NewPairingCode()
	if len(code) != 9 || code[4] != '-' {
		t.Fatalf("code %q is not XXXX-XXXX", code)
	}
	typed := strings.ToLower(strings.ReplaceAll(code, "-", " "))
	if !bytes.Equal(secret.Hash(secret.NormalizePairingCode(typed)), hash) {
		t.Errorf("typed %q does not match %q", typed, code)
	}
	if got := secret.NormalizePairingCode("o1l-i"); got != "0111" {
		t.Errorf("NormalizePairingCode(o1l-i) = %q; want 0111", got)
	}
}

func TestWebhookSecret(t *testing.T) {
	s := secret.NewWebhookSecret()
	if !feedback.ValidSecret(s) {
		t.Fatalf("ValidSecret(%q) = false", s)
	}
}

func FuzzParsePosterCode(f *testing.F) {
	key := secret.NewPosterKey()
	f.Add(secret.SignPoster(key, feedback.NewID()))
	f.Add("")
	f.Add(strings.Repeat("A", 43))
	f.Add(strings.Repeat("-", 43) + "\x00")
	f.Fuzz(func(t *testing.T, code string) {
		id, mac, ok := secret.ParsePosterCode(code)
		if !ok {
			return
		}
		if len(code) != 43 || len(mac) != 16 {
			t.Fatalf("accepted %q with mac of %d bytes", code, len(mac))
		}
		if _, valid := feedback.ParseUUID(id); !valid {
			t.Fatalf("accepted %q naming a non-UUID %q", code, id)
		}
		if secret.VerifyPoster(key, id, mac) && secret.SignPoster(key, id) != code {
			t.Fatalf("%q verifies but is not the canonical code", code)
		}
	})
}

func TestKeyringDerive(t *testing.T) {
	key := secret.NewKey()
	a, _ := secret.ParseKeyring(key)
	b, _ := secret.ParseKeyring(key)
	c, _ := secret.ParseKeyring(secret.NewKey())
	if string(a.Derive("x")) != string(b.Derive("x")) || len(a.Derive("x")) != 32 {
		t.Error("Derive differs between keyrings of the same key")
	}
	if string(a.Derive("x")) == string(a.Derive("y")) || string(a.Derive("x")) == string(c.Derive("x")) {
		t.Error("Derive does not depend on the label and the key")
	}
}
