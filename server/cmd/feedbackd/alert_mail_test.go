package main

import (
	"bytes"
	"io"
	"mime"
	"mime/quotedprintable"
	"net"
	"net/mail"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/emersion/go-smtp"

	"github.com/feedbackhq/feedback/server/internal/pgtest"
	"github.com/feedbackhq/feedback/server/secret"
	"github.com/feedbackhq/feedback/shared/feedback"
)

// smtpMessage is one message a test SMTP server received.
type smtpMessage struct {
	from string
	to   []string
	data []byte
}

// smtpSink is an in-process SMTP server (emersion/go-smtp) that keeps
// what it receives.
type smtpSink struct {
	mu   sync.Mutex
	msgs []smtpMessage
}

// NewSession implements smtp.Backend.
func (s *smtpSink) NewSession(*smtp.Conn) (smtp.Session, error) { return &smtpSession{sink: s}, nil }

type smtpSession struct {
	sink *smtpSink
	msg  smtpMessage
}

func (s *smtpSession) Reset()        { s.msg = smtpMessage{} }
func (s *smtpSession) Logout() error { return nil }
func (s *smtpSession) Mail(from string, _ *smtp.MailOptions) error {
	s.msg.from = from
	return nil
}
func (s *smtpSession) Rcpt(to string, _ *smtp.RcptOptions) error {
	s.msg.to = append(s.msg.to, to)
	return nil
}
func (s *smtpSession) Data(r io.Reader) error {
	b, err := io.ReadAll(r)
	if err != nil {
		return err
	}
	s.msg.data = b
	s.sink.mu.Lock()
	s.sink.msgs = append(s.sink.msgs, s.msg)
	s.sink.mu.Unlock()
	return nil
}

// startSMTP runs an SMTP server on a loopback port until t ends, and
// returns its address.
func startSMTP(t *testing.T) (*smtpSink, string) {
	sink := &smtpSink{}
	srv := smtp.NewServer(sink)
	srv.Domain = "localhost"
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	go func() { _ = srv.Serve(ln) }()
	t.Cleanup(func() { srv.Close() })
	return sink, ln.Addr().String()
}

// TestAlertMail: an alert of a rule with emails is mailed once through
// a real SMTP server, from the configured sender to the rule's emails,
// its subject naming the rule, the location and the summary (encoded,
// on one line), its body the link to the alert's page.
func TestAlertMail(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and starts feedbackd; skipped with -short")
	}
	sink, smtpAddr := startSMTP(t)
	env := []string{"DATABASE_URL=" + pgtest.URL(t), "FEEDBACK_SECRET_KEY=" + secret.NewKey(),
		"FEEDBACK_SMTP_URL=smtp://" + smtpAddr, "FEEDBACK_SMTP_FROM=alerts@example.com",
		"FEEDBACK_BASE_URL=http://localhost:8080"}
	bin := buildFeedbackd(t)
	ws := strings.TrimSpace(runBin(t, bin, env, "workspace", "create", "--name", "Mail", "--slug", "mail"))
	tok := strings.TrimSpace(runBin(t, bin, env, "token", "create", "--workspace", ws, "--name", "mail"))
	addr := startFeedbackd(t, bin, env)
	poster := hygienePoster(t, addr, tok, "Hall Ü")
	apiCall(t, addr, tok, "POST", "/api/v1/alert-rules", map[string]any{"name": "Schmutz", "kind": "low_ratings",
		"count": 3, "rating": 2, "window_minutes": 10, "emails": []string{"ops@example.com", "boss@example.com"}}, nil)
	for range 3 {
		postRating(t, addr, poster.Code, 1)
	}
	var msgs []smtpMessage
	for deadline := time.Now().Add(20 * time.Second); time.Now().Before(deadline) && len(msgs) == 0; time.Sleep(50 * time.Millisecond) {
		sink.mu.Lock()
		msgs = append([]smtpMessage{}, sink.msgs...)
		sink.mu.Unlock()
	}
	if len(msgs) != 1 {
		t.Fatalf("the SMTP server received %d messages, want 1", len(msgs))
	}
	var page feedback.Page[feedback.Alert]
	apiCall(t, addr, tok, "GET", "/api/v1/alerts", nil, &page)
	if len(page.Data) != 1 {
		t.Fatalf("GET /alerts: %+v", page)
	}
	m := msgs[0]
	if m.from != "alerts@example.com" || strings.Join(m.to, ",") != "ops@example.com,boss@example.com" {
		t.Errorf("envelope from %s to %v", m.from, m.to)
	}
	msg, err := mail.ReadMessage(bytes.NewReader(m.data))
	if err != nil {
		t.Fatal(err)
	}
	subject, err := new(mime.WordDecoder).DecodeHeader(msg.Header.Get("Subject"))
	if err != nil || subject != "Alert: Schmutz at Hall Ü: 3 ratings of 2 or less within 10 minutes" {
		t.Errorf("subject %q (%v)", subject, err)
	}
	body, _ := io.ReadAll(quotedprintable.NewReader(msg.Body))
	link := "http://localhost:8080/w/mail/alerts/" + page.Data[0].ID
	if !strings.Contains(string(body), "Open the alert: "+link) {
		t.Errorf("the body has no link %s:\n%s", link, body)
	}
}
