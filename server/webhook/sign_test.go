package webhook

import (
	"errors"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	standardwebhooks "github.com/standard-webhooks/standard-webhooks/libraries/go"
)

// The Standard Webhooks test vector (libraries/go/webhook_test.go,
// TestWebhookSign, and the same in every other language's tests).
const (
	specSecret = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw"
	specID     = "msg_p5jXN8AQM9LWM0D4loKWxJek"
	specTS     = 1614265330
	specBody   = `{"test": 2432232314}`
	specSig    = "v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE="
)

// secondSecret is base64 of the bytes 0..31. Its signature of the spec
// message was computed by hand:
//
//	printf '%s' 'msg_p5jXN8AQM9LWM0D4loKWxJek.1614265330.{"test": 2432232314}' |
//	  openssl dgst -sha256 -mac HMAC -binary \
//	    -macopt hexkey:000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f |
//	  base64
//
// (the same command with the spec key's hex gives specSig).
const (
	secondSecret = "whsec_AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8="
	secondSig    = "v1,O4Gjv1HqPqsMrjmczoggs/sWA8gZD0VyHG+fLh4+ktI="
)

func mustKey(t *testing.T, secret string) []byte {
	t.Helper()
	k, err := SecretKey(secret)
	if err != nil {
		t.Fatalf("SecretKey(%q): %v", secret, err)
	}
	return k
}

func TestSignKnownAnswer(t *testing.T) {
	k1, k2 := mustKey(t, specSecret), mustKey(t, secondSecret)
	ts := time.Unix(specTS, 0)
	for _, tc := range []struct {
		name string
		keys [][]byte
		want string
	}{
		{"spec vector", [][]byte{k1}, specSig},
		{"second key", [][]byte{k2}, secondSig},
		{"rotation", [][]byte{k2, k1}, secondSig + " " + specSig},
		{"no keys", nil, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := Sign(tc.keys, specID, ts, []byte(specBody)); got != tc.want {
				t.Errorf("Sign = %q, want %q", got, tc.want)
			}
		})
	}
	// Sub-second precision does not change the signed timestamp.
	if got := Sign([][]byte{k1}, specID, ts.Add(999*time.Millisecond), []byte(specBody)); got != specSig {
		t.Errorf("Sign at +999ms = %q, want %q", got, specSig)
	}
}

func TestSecretKey(t *testing.T) {
	if k := mustKey(t, secondSecret); len(k) != 32 || k[0] != 0 || k[31] != 31 {
		t.Errorf("SecretKey(second) = %x", k)
	}
	for _, bad := range []string{
		"", "whsec_", "MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw", // no prefix
		"whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaS",             // not base64
		"whsec_" + strings.Repeat("A", 28),                  // 21 bytes: too short
		"whsec_" + strings.Repeat("A", 88),                  // 66 bytes: too long
		"whsec_AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8", // unpadded
	} {
		k, err := SecretKey(bad)
		if !errors.Is(err, ErrInvalidSecret) || k != nil {
			t.Errorf("SecretKey(%q) = %x, %v; want ErrInvalidSecret", bad, k, err)
		}
		if len(bad) > len("whsec_") && strings.Contains(err.Error(), bad) {
			t.Errorf("the error quotes the secret: %v", err)
		}
	}
}

func TestHeaders(t *testing.T) {
	ts := time.Unix(specTS, 0)
	h := Headers([][]byte{mustKey(t, specSecret)}, specID, ts, []byte(specBody))
	want := map[string]string{
		"webhook-id":        specID,
		"webhook-timestamp": "1614265330",
		"webhook-signature": specSig,
		"Content-Type":      "application/json",
		"User-Agent":        UserAgent,
	}
	for k, v := range want {
		if got := h.Get(k); got != v {
			t.Errorf("%s = %q, want %q", k, got, v)
		}
	}
	if len(h) != len(want) {
		t.Errorf("Headers has %d entries, want %d: %v", len(h), len(want), h)
	}
}

// verify checks headers and body with the official library under secret.
func verify(t *testing.T, secret string, body []byte, h http.Header) error {
	t.Helper()
	wh, err := standardwebhooks.NewWebhook(secret)
	if err != nil {
		t.Fatal(err)
	}
	return wh.Verify(body, h)
}

func TestHeadersVerifyWithOfficialLibrary(t *testing.T) {
	k1, k2 := mustKey(t, specSecret), mustKey(t, secondSecret)
	body := []byte(`{"id":"0190a0b2-0000-7000-8000-000000000001","type":"webhook.test","data":{}}`)
	const id = "0190a0b2-0000-7000-8000-0000000000ff"
	now := time.Now()

	t.Run("one secret", func(t *testing.T) {
		h := Headers([][]byte{k1}, id, now, body)
		if err := verify(t, specSecret, body, h); err != nil {
			t.Errorf("Verify: %v", err)
		}
		if err := verify(t, secondSecret, body, h); !errors.Is(err, standardwebhooks.ErrNoMatchingSignature) {
			t.Errorf("Verify with another secret = %v, want ErrNoMatchingSignature", err)
		}
	})
	t.Run("two secrets, each verifies alone", func(t *testing.T) {
		h := Headers([][]byte{k2, k1}, id, now, body)
		for _, s := range []string{specSecret, secondSecret} {
			if err := verify(t, s, body, h); err != nil {
				t.Errorf("Verify with %s: %v", s[:12], err)
			}
		}
	})

	tampered := []struct {
		name   string
		change func(h http.Header, body []byte) []byte
	}{
		{"body", func(_ http.Header, b []byte) []byte { return append(b[:len(b)-1], ' ', '}') }},
		{"id", func(h http.Header, b []byte) []byte { h.Set(HeaderID, id+"0"); return b }},
		{"timestamp", func(h http.Header, b []byte) []byte {
			h.Set(HeaderTimestamp, strconv.FormatInt(now.Unix()+1, 10))
			return b
		}},
		{"signature version", func(h http.Header, b []byte) []byte {
			h.Set(HeaderSignature, strings.ReplaceAll(h.Get(HeaderSignature), "v1,", "v2,"))
			return b
		}},
	}
	for _, tc := range tampered {
		t.Run("tampered "+tc.name, func(t *testing.T) {
			h := Headers([][]byte{k2, k1}, id, now, body)
			b := tc.change(h, append([]byte(nil), body...))
			if err := verify(t, specSecret, b, h); !errors.Is(err, standardwebhooks.ErrNoMatchingSignature) {
				t.Errorf("Verify = %v, want ErrNoMatchingSignature", err)
			}
		})
	}
}

// TestOfficialTimestampTolerance pins the receiver's side of retries: the
// library refuses a timestamp more than 5 minutes from its clock, so each
// attempt must be signed at its own time, never at the event's.
func TestOfficialTimestampTolerance(t *testing.T) {
	k := mustKey(t, specSecret)
	body := []byte(`{}`)
	now := time.Now()
	for _, tc := range []struct {
		name string
		ts   time.Time
		want error
	}{
		{"now", now, nil},
		{"4m ago", now.Add(-4 * time.Minute), nil},
		{"4m ahead", now.Add(4 * time.Minute), nil},
		{"6m ago", now.Add(-6 * time.Minute), standardwebhooks.ErrMessageTooOld},
		{"6m ahead", now.Add(6 * time.Minute), standardwebhooks.ErrMessageTooNew},
		{"spec vector (2021)", time.Unix(specTS, 0), standardwebhooks.ErrMessageTooOld},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := verify(t, specSecret, body, Headers([][]byte{k}, "msg_1", tc.ts, body))
			if !errors.Is(err, tc.want) || (tc.want == nil && err != nil) {
				t.Errorf("Verify = %v, want %v", err, tc.want)
			}
		})
	}
}
