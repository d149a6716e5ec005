package webhook

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"errors"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/feedbackhq/feedback/shared/feedback"
)

// The Standard Webhooks request headers.
const (
	HeaderID        = "webhook-id"
	HeaderTimestamp = "webhook-timestamp"
	HeaderSignature = "webhook-signature"
)

// UserAgent is the User-Agent of every delivery.
const UserAgent = "feedbackd-webhooks/1.0 (+https://github.com/feedbackhq/feedback)"

// ErrInvalidSecret is returned by [SecretKey] for a malformed secret. It
// never quotes the secret.
var ErrInvalidSecret = errors.New("webhook: invalid signing secret: want whsec_ followed by base64 of 24 to 64 bytes")

// SecretKey returns the raw key of a "whsec_" signing secret: the
// standard base64 after the prefix, decoded. It returns [ErrInvalidSecret]
// unless [feedback.ValidSecret] accepts secret.
func SecretKey(secret string) ([]byte, error) {
	if !feedback.ValidSecret(secret) {
		return nil, ErrInvalidSecret
	}
	return base64.StdEncoding.DecodeString(strings.TrimPrefix(secret, feedback.SecretPrefix))
}

// Sign returns the webhook-signature header value for a message: one
// "v1,<base64 HMAC-SHA256>" signature of msgID + "." + Unix seconds of ts
// + "." + body per key in secrets, separated by spaces. Passing the
// current and the previous key during a rotation lets a receiver verify
// with either. With no keys it returns "", which no receiver accepts.
func Sign(secrets [][]byte, msgID string, ts time.Time, body []byte) (header string) {
	var b strings.Builder
	prefix := strconv.AppendInt([]byte(msgID+"."), ts.Unix(), 10)
	prefix = append(prefix, '.')
	for i, key := range secrets {
		mac := hmac.New(sha256.New, key)
		mac.Write(prefix)
		mac.Write(body)
		if i > 0 {
			b.WriteByte(' ')
		}
		b.WriteString("v1,")
		b.WriteString(base64.StdEncoding.EncodeToString(mac.Sum(nil)))
	}
	return b.String()
}

// Headers returns the headers of a delivery of body: webhook-id
// (msgID, the same for every attempt, so a receiver can drop repeats),
// webhook-timestamp (Unix seconds of ts, the attempt's time),
// webhook-signature ([Sign]), Content-Type application/json and
// [UserAgent].
func Headers(secrets [][]byte, msgID string, ts time.Time, body []byte) http.Header {
	h := make(http.Header, 5)
	h.Set(HeaderID, msgID)
	h.Set(HeaderTimestamp, strconv.FormatInt(ts.Unix(), 10))
	h.Set(HeaderSignature, Sign(secrets, msgID, ts, body))
	h.Set("Content-Type", "application/json")
	h.Set("User-Agent", UserAgent)
	return h
}
