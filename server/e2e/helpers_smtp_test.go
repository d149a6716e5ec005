package e2e_test

import (
	"io"
	"net"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/emersion/go-smtp"
)

// mailbox is a real SMTP server (emersion/go-smtp) running in the test
// on a free port: it accepts every message and keeps it, with its
// recipients, for the test to read.
type mailbox struct {
	addr string
	mu   sync.Mutex
	got  []mail
	new  chan struct{} // signalled on each message
}

// mail is one message received: its envelope's recipients and its
// content (headers and body, as sent).
type mail struct {
	to   []string
	data string
}

// startSMTP starts the server; it stops when t ends.
func startSMTP(t *testing.T) *mailbox {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	m := &mailbox{addr: ln.Addr().String(), new: make(chan struct{}, 64)}
	srv := smtp.NewServer(smtp.BackendFunc(func(*smtp.Conn) (smtp.Session, error) { return &smtpSession{box: m}, nil }))
	srv.Domain = "mail.test"
	srv.AllowInsecureAuth = true
	srv.ReadTimeout, srv.WriteTimeout = 30*time.Second, 30*time.Second
	go func() { _ = srv.Serve(ln) }()
	t.Cleanup(func() { _ = srv.Close() })
	return m
}

// wait returns the content of the first message to rcpt, waiting up to
// timeout for it.
func (m *mailbox) wait(t *testing.T, rcpt string, timeout time.Duration) string {
	t.Helper()
	deadline := time.After(timeout)
	for {
		m.mu.Lock()
		for _, g := range m.got {
			for _, to := range g.to {
				if strings.EqualFold(to, rcpt) {
					m.mu.Unlock()
					return g.data
				}
			}
		}
		m.mu.Unlock()
		select {
		case <-m.new:
		case <-deadline:
			t.Fatalf("no email to %s reached the SMTP server within %v", rcpt, timeout)
		}
	}
}

// smtpSession is one connection's transaction.
type smtpSession struct {
	box *mailbox
	to  []string
}

func (s *smtpSession) Reset()        { s.to = nil }
func (s *smtpSession) Logout() error { return nil }

func (s *smtpSession) Mail(string, *smtp.MailOptions) error { return nil }

func (s *smtpSession) Rcpt(to string, _ *smtp.RcptOptions) error {
	s.to = append(s.to, to)
	return nil
}

func (s *smtpSession) Data(r io.Reader) error {
	b, err := io.ReadAll(r)
	if err != nil {
		return err
	}
	s.box.mu.Lock()
	s.box.got = append(s.box.got, mail{to: s.to, data: string(b)})
	s.box.mu.Unlock()
	select {
	case s.box.new <- struct{}{}:
	default:
	}
	return nil
}

// flags are the serve flags that send the alerts' emails to the server.
func (m *mailbox) flags() []string {
	return []string{"--smtp-url", "smtp://" + m.addr, "--smtp-from", "alerts@feedback.test"}
}
