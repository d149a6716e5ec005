package alerts_test

import (
	"bytes"
	"io"
	"mime"
	"mime/quotedprintable"
	"net/mail"
	"strings"
	"testing"
	"time"

	"github.com/feedbackhq/feedback/server"
	"github.com/feedbackhq/feedback/server/alerts"
	"github.com/feedbackhq/feedback/shared/feedback"
)

// TestMessageHeaders: user text with line breaks and non-ASCII stays in
// the Subject header, encoded and on one line, and adds no header.
func TestMessageHeaders(t *testing.T) {
	m := &server.AlertMail{ID: feedback.NewID(), WorkspaceSlug: "acme", LocationName: "Hall Ü\r\nBcc: evil@example.com",
		Recipients: []string{"ops@example.com", "boss@example.com"},
		Alert: feedback.Alert{ID: feedback.NewID(), RuleName: "Dirty\nX-Evil: 1", Summary: "3 ratings of 2 or less within 10 minutes",
			TriggeredAt: feedback.NewTime(time.Date(2026, 11, 24, 8, 0, 0, 0, time.UTC))}}
	raw := alerts.Message("alerts@example.com", "https://feedback.example/", m, time.Date(2026, 11, 24, 8, 0, 1, 0, time.UTC))
	msg, err := mail.ReadMessage(bytes.NewReader(raw))
	if err != nil {
		t.Fatal(err)
	}
	for _, h := range []string{"Bcc", "X-Evil"} {
		if v := msg.Header.Get(h); v != "" {
			t.Errorf("header %s: %q was injected", h, v)
		}
	}
	subject, err := new(mime.WordDecoder).DecodeHeader(msg.Header.Get("Subject"))
	want := "Alert: Dirty X-Evil: 1 at Hall Ü  Bcc: evil@example.com: 3 ratings of 2 or less within 10 minutes"
	if err != nil || subject != want {
		t.Errorf("subject %q (%v), want %q", subject, err, want)
	}
	if got := msg.Header.Get("To"); got != "ops@example.com, boss@example.com" {
		t.Errorf("To: %q", got)
	}
	body, _ := io.ReadAll(quotedprintable.NewReader(msg.Body))
	if link := "https://feedback.example/w/acme/alerts/" + m.Alert.ID; !strings.Contains(string(body), link) {
		t.Errorf("the body has no %s:\n%s", link, body)
	}
}

// TestParseSMTPURL: smtp and smtps URLs with a host are accepted, others
// refused.
func TestParseSMTPURL(t *testing.T) {
	for s, ok := range map[string]bool{
		"smtp://mail.example.com:587":       true,
		"smtps://user:pw@mail.example.com":  true,
		"http://mail.example.com":           false,
		"smtp://":                           false,
		"smtp://mail.example.com/some/path": false,
		"mail.example.com:25":               false,
	} {
		if _, err := alerts.ParseSMTPURL(s); (err == nil) != ok {
			t.Errorf("ParseSMTPURL(%q) error %v, want ok %v", s, err, ok)
		}
	}
}
