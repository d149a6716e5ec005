package auth_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"log/slog"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/feedbackhq/feedback/server/auth"
	"github.com/feedbackhq/feedback/server/idp"
)

// tokenLog is the relying party's transport to the provider: it records
// the refresh tokens that the token endpoint hands out, counts the
// refresh grants, and can cut the way to the provider.
type tokenLog struct {
	next http.RoundTripper
	down atomic.Bool

	mu        sync.Mutex
	issued    []string // refresh tokens, in order
	refreshes int      // refresh_token grants asked for
}

// RoundTrip implements http.RoundTripper.
func (l *tokenLog) RoundTrip(req *http.Request) (*http.Response, error) {
	if l.down.Load() {
		return nil, errors.New("tokenLog: the provider cannot be reached")
	}
	token := strings.HasSuffix(req.URL.Path, "/oauth/token")
	if token && formOf(req).Get("grant_type") == "refresh_token" {
		l.mu.Lock()
		l.refreshes++
		l.mu.Unlock()
	}
	res, err := l.next.RoundTrip(req)
	if err != nil || !token {
		return res, err
	}
	b, err := io.ReadAll(res.Body)
	res.Body.Close()
	res.Body = io.NopCloser(bytes.NewReader(b))
	var tok struct {
		RefreshToken string `json:"refresh_token"`
	}
	if json.Unmarshal(b, &tok) == nil && tok.RefreshToken != "" {
		l.mu.Lock()
		l.issued = append(l.issued, tok.RefreshToken)
		l.mu.Unlock()
	}
	return res, err
}

// formOf returns the form of a request without consuming its body.
func formOf(req *http.Request) url.Values {
	if req.GetBody == nil {
		return nil
	}
	body, err := req.GetBody()
	if err != nil {
		return nil
	}
	b, _ := io.ReadAll(body)
	q, _ := url.ParseQuery(string(b))
	return q
}

// last returns the refresh token the provider issued last.
func (l *tokenLog) last(t *testing.T) string {
	t.Helper()
	l.mu.Lock()
	defer l.mu.Unlock()
	if len(l.issued) == 0 {
		t.Fatal("the provider issued no refresh token")
	}
	return l.issued[len(l.issued)-1]
}

// refreshCount returns how many refresh grants the relying party asked
// for.
func (l *tokenLog) refreshCount() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.refreshes
}

// syncBuffer collects a log.
type syncBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// endpoint returns an endpoint of the provider's discovery document.
func (r *rig) endpoint(t *testing.T, name string) string {
	t.Helper()
	res, err := (&http.Client{Transport: r.tls}).Get(r.Issuer + "/.well-known/openid-configuration")
	if err != nil {
		t.Fatal(err)
	}
	var doc map[string]any
	if err := json.Unmarshal([]byte(readBody(t, res)), &doc); err != nil {
		t.Fatal(err)
	}
	u, _ := doc[name].(string)
	return u
}

// atProvider posts form to an endpoint of the provider as our client,
// and returns the answer's status and body.
func (r *rig) atProvider(t *testing.T, endpoint string, form url.Values) (int, string) {
	t.Helper()
	req, _ := http.NewRequest("POST", r.endpoint(t, endpoint), strings.NewReader(form.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.SetBasicAuth(clientID, clientSecret)
	res, err := (&http.Client{Transport: r.tls}).Do(req)
	if err != nil {
		t.Fatal(err)
	}
	return res.StatusCode, readBody(t, res)
}

// revokeGrant revokes a refresh token at the provider, as its
// administrator ending the grant would.
func (r *rig) revokeGrant(t *testing.T, refresh string) {
	t.Helper()
	if status, body := r.atProvider(t, "revocation_endpoint", url.Values{"token": {refresh}, "token_type_hint": {"refresh_token"}}); status != http.StatusOK {
		t.Fatalf("the revocation answered %d: %s", status, body)
	}
}

// refreshWorks reports whether the provider still accepts refresh, and
// fails the test when it answers anything but tokens or invalid_grant.
func (r *rig) refreshWorks(t *testing.T, refresh string) bool {
	t.Helper()
	status, body := r.atProvider(t, "token_endpoint", url.Values{"grant_type": {"refresh_token"}, "refresh_token": {refresh}})
	if status != http.StatusOK && !strings.Contains(body, "invalid_grant") {
		t.Fatalf("a refresh at the provider answered %d: %s", status, body)
	}
	return status == http.StatusOK
}

// embedded is the embedded provider of a rig, with its account.
type embedded struct {
	p               *idp.Provider
	email, password string
	login           string // the login page of the last sign-in
}

// newEmbeddedRig starts the service on a fresh database with sign-in
// through the embedded provider at /idp, on the same database and clock,
// which the relying party reaches in process as feedbackd does; it has
// one account.
func newEmbeddedRig(t *testing.T, open opener, mods ...func(*setup)) *rig {
	r, hs := startRig(t, open)
	r.Issuer = r.URL + "/idp"
	p, err := idp.New(context.Background(), idp.Config{Issuer: r.Issuer, Store: r.Store,
		Keys: r.Keys, Now: r.Clock.Now, Logger: slog.New(slog.NewTextHandler(r.Log, nil)),
		Clients: []idp.Client{{ID: clientID, Secret: clientSecret, RedirectURIs: []string{r.URL + "/auth/callback"},
			PostLogoutRedirectURIs: []string{r.URL + "/auth/signed-out"}}}})
	if err != nil {
		t.Fatal(err)
	}
	r.embedded = &embedded{p: p, email: "ada@example.com", password: "correct horse battery"}
	if _, err := p.CreateAccount(context.Background(), r.embedded.email); err != nil {
		t.Fatal(err)
	}
	if err := p.SetPassword(context.Background(), r.embedded.email, r.embedded.password); err != nil {
		t.Fatal(err)
	}
	r.Tokens.next = auth.LocalTransport{Prefix: r.Issuer, Handler: p.Handler()}
	var st setup
	for _, m := range mods {
		m(&st)
	}
	r.serve(hs, st.Config)
	return r
}

// logIn types the account's email and password into the provider's
// login page that res answered with page.
func (e *embedded) logIn(t *testing.T, b *browser, res *http.Response, page string) (int, string) {
	t.Helper()
	if !strings.Contains(page, `name="email"`) {
		t.Fatalf("the sign-in link led to %s, not the provider's login page:\n%s", res.Request.URL, page)
	}
	e.login = res.Request.URL.String()
	res, err := b.PostForm(e.login, url.Values{"email": {e.email}, "password": {e.password}})
	if err != nil {
		t.Fatal(err)
	}
	return res.StatusCode, readBody(t, res)
}
