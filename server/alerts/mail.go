package alerts

import (
	"bytes"
	"context"
	"crypto/tls"
	"fmt"
	"mime"
	"mime/quotedprintable"
	"net"
	"net/smtp"
	"net/url"
	"strings"
	"time"

	"github.com/feedbackhq/feedback/server"
	"github.com/feedbackhq/feedback/shared/feedback"
)

// mailTimeout bounds one conversation with the SMTP server.
const mailTimeout = 30 * time.Second

// Mailer sends alert mails through an SMTP server.
type Mailer struct {
	// Server is smtp://[user:password@]host[:port] (port 587 by default;
	// STARTTLS when the server offers it) or smtps://... (implicit TLS,
	// port 465 by default).
	Server *url.URL
	// From is the sender's address.
	From string
	// BaseURL is the service's public URL, which the mail's link starts
	// with.
	BaseURL string
	// TLS configures TLS; nil means the system's roots and the server's
	// host name.
	TLS *tls.Config
}

// ParseSMTPURL parses and checks the URL of an SMTP server for
// [Mailer.Server].
func ParseSMTPURL(s string) (*url.URL, error) {
	u, err := url.Parse(s)
	if err != nil {
		return nil, err
	}
	if (u.Scheme != "smtp" && u.Scheme != "smtps") || u.Hostname() == "" || (u.Path != "" && u.Path != "/") {
		return nil, fmt.Errorf("want smtp://[user:password@]host[:port] or smtps://..., got scheme %q host %q", u.Scheme, u.Hostname())
	}
	return u, nil
}

// Send sends m in one SMTP conversation.
func (mm *Mailer) Send(ctx context.Context, m *server.AlertMail) error {
	c, err := mm.dial(ctx)
	if err != nil {
		return err
	}
	defer c.Close()
	if err := mm.secure(c); err != nil {
		return err
	}
	if err := c.Mail(mm.From); err != nil {
		return err
	}
	for _, to := range m.Recipients {
		if err := c.Rcpt(to); err != nil {
			return err
		}
	}
	w, err := c.Data()
	if err != nil {
		return err
	}
	if _, err := w.Write(Message(mm.From, mm.BaseURL, m, time.Now())); err != nil {
		return err
	}
	if err := w.Close(); err != nil {
		return err
	}
	return c.Quit()
}

// dial connects to the server, over TLS for smtps.
func (mm *Mailer) dial(ctx context.Context) (*smtp.Client, error) {
	host, port := mm.Server.Hostname(), mm.Server.Port()
	if port == "" {
		port = map[bool]string{true: "465", false: "587"}[mm.Server.Scheme == "smtps"]
	}
	d := &net.Dialer{Timeout: mailTimeout}
	var conn net.Conn
	var err error
	if mm.Server.Scheme == "smtps" {
		conn, err = (&tls.Dialer{NetDialer: d, Config: mm.tlsConfig()}).DialContext(ctx, "tcp", net.JoinHostPort(host, port))
	} else {
		conn, err = d.DialContext(ctx, "tcp", net.JoinHostPort(host, port))
	}
	if err != nil {
		return nil, err
	}
	_ = conn.SetDeadline(time.Now().Add(mailTimeout))
	c, err := smtp.NewClient(conn, host)
	if err != nil {
		conn.Close()
	}
	return c, err
}

// secure starts TLS when the server offers it (smtp), and authenticates
// when the URL has a user.
func (mm *Mailer) secure(c *smtp.Client) error {
	if ok, _ := c.Extension("STARTTLS"); ok && mm.Server.Scheme == "smtp" {
		if err := c.StartTLS(mm.tlsConfig()); err != nil {
			return err
		}
	}
	if mm.Server.User == nil {
		return nil
	}
	pass, _ := mm.Server.User.Password()
	return c.Auth(smtp.PlainAuth("", mm.Server.User.Username(), pass, mm.Server.Hostname()))
}

func (mm *Mailer) tlsConfig() *tls.Config {
	if mm.TLS != nil {
		return mm.TLS
	}
	return &tls.Config{ServerName: mm.Server.Hostname(), MinVersion: tls.VersionTLS12}
}

// Link returns the dashboard's page of the alert of m.
func Link(baseURL string, m *server.AlertMail) string {
	return strings.TrimRight(baseURL, "/") + "/w/" + url.PathEscape(m.WorkspaceSlug) + "/alerts/" + m.Alert.ID
}

// Message returns the mail of m from from, dated now: plain text in
// UTF-8, quoted-printable, its subject naming the rule, the location and
// the summary. No user text reaches a header unencoded: line breaks are
// replaced by spaces and non-ASCII is MIME-encoded (RFC 2047); the
// addresses were validated when they were stored.
func Message(from, baseURL string, m *server.AlertMail, now time.Time) []byte {
	a := &m.Alert
	where := m.LocationName
	if where == "" {
		where = "every location"
	}
	subject := fmt.Sprintf("Alert: %s at %s: %s", a.RuleName, where, a.Summary)
	var b bytes.Buffer
	header := func(k, v string) { fmt.Fprintf(&b, "%s: %s\r\n", k, v) }
	header("From", from)
	header("To", strings.Join(m.Recipients, ", "))
	header("Subject", mime.QEncoding.Encode("utf-8", oneLine(subject)))
	header("Date", now.UTC().Format(time.RFC1123Z))
	header("Message-ID", "<"+m.ID+"@feedback.alerts>")
	header("MIME-Version", "1.0")
	header("Content-Type", "text/plain; charset=utf-8")
	header("Content-Transfer-Encoding", "quoted-printable")
	b.WriteString("\r\n")
	qp := quotedprintable.NewWriter(&b)
	fmt.Fprintf(qp, "Rule: %s\r\nLocation: %s\r\n", a.RuleName, where)
	if a.KioskID != nil {
		fmt.Fprintf(qp, "Kiosk: %s\r\n", *a.KioskID)
	}
	fmt.Fprintf(qp, "What happened: %s\r\nTriggered at: %s\r\n\r\nOpen the alert: %s\r\n",
		a.Summary, a.TriggeredAt.UTC().Format(time.RFC3339), Link(baseURL, m))
	qp.Close()
	return b.Bytes()
}

// oneLine replaces each CR, LF and other control character of s by a
// space.
func oneLine(s string) string {
	return strings.Map(func(r rune) rune {
		if r < 0x20 || r == 0x7f {
			return ' '
		}
		return r
	}, s)
}

// ValidSender reports whether from may be the sender of alert mails.
func ValidSender(from string) bool { return feedback.ValidEmail(from) }
