package e2e_test

import (
	"io"
	"mime/quotedprintable"
	"net"
	"net/mail"
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
	got  []mailMsg
	new  chan struct{} // signalled on each message
}

// mailMsg is one message: its envelope's recipients and its
// content (headers and body, as sent).
type mailMsg struct {
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

// wait returns the first message to rcpt, its headers then its body
// decoded (quoted-printable), waiting up to timeout for it.
func (m *mailbox) wait(t *testing.T, rcpt string, timeout time.Duration) string {
	t.Helper()
	deadline := time.After(timeout)
	for {
		m.mu.Lock()
		for _, g := range m.got {
			for _, to := range g.to {
				if strings.EqualFold(to, rcpt) {
					m.mu.Unlock()
					return decodeMail(t, g.data)
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

// decodeMail returns the headers of data, then its body decoded.
func decodeMail(t *testing.T, data string) string {
	t.Helper()
	msg, err := mail.ReadMessage(strings.NewReader(data))
	if err != nil {
		t.Fatalf("the email cannot be read: %v\n%s", err, data)
	}
	body := msg.Body
	if strings.EqualFold(msg.Header.Get("Content-Transfer-Encoding"), "quoted-printable") {
		body = quotedprintable.NewReader(body)
	}
	b, err := io.ReadAll(body)
	if err != nil {
		t.Fatalf("the email's body cannot be decoded: %v\n%s", err, data)
	}
	head, _, _ := strings.Cut(data, "\r\n\r\n")
	return head + "\n\n" + string(b)
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
	s.box.got = append(s.box.got, mailMsg{to: s.to, data: string(b)})
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
