package e2e_test

import (
	"context"
	"io"
	"net"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/emersion/go-smtp"

	"github.com/feedbackhq/feedback/shared/feedback"
)

// mailSink is an in-process SMTP server (emersion/go-smtp) that keeps
// the messages it receives.
type mailSink struct {
	mu   sync.Mutex
	msgs []string
}

// NewSession implements smtp.Backend.
func (m *mailSink) NewSession(*smtp.Conn) (smtp.Session, error) { return &mailSession{sink: m}, nil }

// mailSession receives one connection's messages.
type mailSession struct{ sink *mailSink }

func (s *mailSession) Reset()                               {}
func (s *mailSession) Logout() error                        { return nil }
func (s *mailSession) Mail(string, *smtp.MailOptions) error { return nil }
func (s *mailSession) Rcpt(string, *smtp.RcptOptions) error { return nil }
func (s *mailSession) Data(r io.Reader) error {
	b, err := io.ReadAll(r)
	s.sink.mu.Lock()
	s.sink.msgs = append(s.sink.msgs, string(b))
	s.sink.mu.Unlock()
	return err
}

// messages returns what the sink received.
func (m *mailSink) messages() []string {
	m.mu.Lock()
	defer m.mu.Unlock()
	return append([]string{}, m.msgs...)
}

// startMailSink runs an SMTP server on a loopback port until t ends.
func startMailSink(t *testing.T) (*mailSink, string) {
	sink := &mailSink{}
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

// TestAlertFromVisitorPage: three low ratings posted on the visitor page
// in Chromium raise one alert, listed by the API with alert.triggered,
// whose mail arrives at a real SMTP server with the link to the alert;
// acknowledging it through the API emits alert.acknowledged. (The
// dashboard's alert page is tested with the dashboard.)
func TestAlertFromVisitorPage(t *testing.T) {
	needBrowser(t)
	t.Parallel()
	sink, smtpAddr := startMailSink(t)
	s := startServer(t, "--smtp-url", "smtp://"+smtpAddr, "--smtp-from", "alerts@example.com")
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	name, kind, count, rating, window := "Three bad ratings", feedback.RuleLowRatings, 3, 2, 10
	emails := []string{"ops@example.com"}
	if _, err := s.api.CreateAlertRule(ctx, feedback.AlertRuleInput{Name: &name, Kind: &kind, Count: &count,
		Rating: &rating, WindowMinutes: &window, Emails: &emails}); err != nil {
		t.Fatal(err)
	}
	b := newBrowser(t)
	for i := range 3 {
		b.openWithoutWasm(s.visitorURL(feedback.FormHygiene))
		fillHygiene(b, 1, "dirty "+string(rune('a'+i)))
		if _, err := chromedp.RunResponse(b.ctx, chromedp.Click(chromedp.CSS(submitButton))); err != nil {
			t.Fatalf("submit %d: %v", i, err)
		}
	}
	var alerts *feedback.Page[feedback.Alert]
	for deadline := time.Now().Add(20 * time.Second); time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
		var err error
		if alerts, err = s.api.Alerts(ctx, feedback.ListParams{Page: 1, PerPage: 10}, feedback.AlertFilter{State: "open"}); err != nil {
			t.Fatal(err)
		}
		if len(alerts.Data) > 0 {
			break
		}
	}
	if len(alerts.Data) != 1 || alerts.Data[0].Value != 3 {
		t.Fatalf("open alerts after three low ratings: %+v", alerts.Data)
	}
	a := alerts.Data[0]
	var mail string
	for deadline := time.Now().Add(20 * time.Second); time.Now().Before(deadline) && mail == ""; time.Sleep(50 * time.Millisecond) {
		if msgs := sink.messages(); len(msgs) > 0 {
			mail = msgs[0]
		}
	}
	if unfolded := strings.ReplaceAll(mail, "=\r\n", ""); !strings.Contains(unfolded, "/alerts/"+a.ID) {
		t.Errorf("the mail has no link to alert %s:\n%s", a.ID, mail)
	}
	if _, err := s.api.AcknowledgeAlert(ctx, a.ID); err != nil {
		t.Fatal(err)
	}
	events, err := s.api.Events(ctx, 0, feedback.MaxEventLimit)
	if err != nil {
		t.Fatal(err)
	}
	var kinds []string
	for _, e := range events.Data {
		if strings.HasPrefix(e.Type, "alert.") && strings.Contains(string(e.Data), a.ID) {
			kinds = append(kinds, e.Type)
		}
	}
	if strings.Join(kinds, " ") != "alert.triggered alert.acknowledged" {
		t.Errorf("the alert's events: %v", kinds)
	}
}
