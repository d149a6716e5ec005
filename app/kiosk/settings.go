package kiosk

import (
	"crypto/sha256"
	"crypto/subtle"
	"encoding/hex"
	"encoding/json"
	"time"

	"github.com/feedbackhq/feedback/shared/feedback"
)

// Kiosk rhythms that are not set per kiosk (its timing is: see
// feedback.KioskTiming).
const (
	HeartbeatFor = 60 * time.Second // how often the kiosk reports itself alive
	UpdateEvery  = 15 * time.Minute // how often it looks for a new app version
)

// Timing returns the kiosk's pacing as durations, with the defaults for
// settings saved before timings existed.
func (s *Settings) Timing() (reset, idle, interval time.Duration) {
	t := s.Kiosk.Timing
	if t.ResetSeconds == 0 && t.IdleSeconds == 0 {
		t = feedback.DefaultKioskTiming
	}
	sec := func(n int) time.Duration { return time.Duration(n) * time.Second }
	return sec(t.ResetSeconds), sec(t.IdleSeconds), sec(t.IntervalSeconds)
}

// Settings is what a paired kiosk keeps on the device (localStorage).
type Settings struct {
	Credential string            `json:"credential"`
	Kiosk      feedback.Kiosk    `json:"kiosk"`
	Form       feedback.FormView `json:"form"`
	Lang       string            `json:"lang"`
	PINSalt    string            `json:"pin_salt"`
	PINHash    string            `json:"pin_hash"`
	ConfigAt   time.Time         `json:"config_at"`
}

// Paired reports whether the settings hold a kiosk credential.
func (s *Settings) Paired() bool { return s != nil && s.Credential != "" }

// SetPIN stores a salted hash of pin, never the pin itself.
func (s *Settings) SetPIN(pin, salt string) {
	s.PINSalt, s.PINHash = salt, pinHash(salt, pin)
}

// CheckPIN reports whether pin is the kiosk's exit PIN.
func (s *Settings) CheckPIN(pin string) bool {
	return subtle.ConstantTimeCompare([]byte(pinHash(s.PINSalt, pin)), []byte(s.PINHash)) == 1
}

func pinHash(salt, pin string) string {
	h := sha256.Sum256([]byte(salt + ":" + pin))
	return hex.EncodeToString(h[:])
}

// ValidPIN reports whether pin is 4 to 8 digits.
func ValidPIN(pin string) bool {
	if len(pin) < 4 || len(pin) > 8 {
		return false
	}
	for _, c := range pin {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}

// Encode returns the settings as JSON for storage.
func (s *Settings) Encode() string {
	b, _ := json.Marshal(s)
	return string(b)
}

// DecodeSettings reads stored settings; nil when there are none.
func DecodeSettings(raw string) *Settings {
	if raw == "" {
		return nil
	}
	var s Settings
	if json.Unmarshal([]byte(raw), &s) != nil {
		return nil
	}
	return &s
}
