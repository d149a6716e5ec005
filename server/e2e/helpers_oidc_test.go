package e2e_test

import (
	"context"
	"crypto/sha256"
	"html/template"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/chromedp"
	"github.com/zitadel/oidc/v3/example/server/storage"
	"github.com/zitadel/oidc/v3/pkg/op"
	"golang.org/x/text/language"
)

// The test provider's user and feedbackd's registration with it. The
// example storage's user logs in as test-user@ the issuer's host name,
// and its email claim is opEmail.
const (
	opUser         = "test-user@localhost"
	opPassword     = "verysecure"
	opEmail        = "test-user@zitadel.ch"
	opClientID     = "dashboard"
	opClientSecret = "dashboard-secret"
)

// startProvider serves an OpenID provider on http://localhost:PORT, as
// server/auth's tests do: zitadel/oidc's op package over its example
// storage (users in memory), with a minimal login form, and feedbackd
// registered with the redirect URL redirect. It returns the issuer and
// is closed when t ends.
func startProvider(t *testing.T, redirect string) string {
	t.Helper()
	ln, err := net.Listen("tcp", "localhost:0")
	if err != nil {
		t.Fatal(err)
	}
	_, port, _ := net.SplitHostPort(ln.Addr().String())
	issuer := "http://localhost:" + port
	st := storage.NewStorageWithClients(storage.NewUserStore(issuer),
		map[string]*storage.Client{opClientID: storage.WebClient(opClientID, opClientSecret, redirect)})
	p, err := op.NewProvider(&op.Config{CryptoKey: sha256.Sum256([]byte(t.Name())), CodeMethodS256: true,
		AuthMethodPost: true, GrantTypeRefreshToken: true, SupportedUILocales: []language.Tag{language.English}},
		st, op.StaticIssuer(issuer), op.WithAllowInsecure())
	if err != nil {
		t.Fatal(err)
	}
	mux := http.NewServeMux()
	mux.Handle("/login/username", op.NewIssuerInterceptor(p.IssuerFromRequest).HandlerFunc(loginHandler(st, op.AuthCallbackURL(p))))
	mux.Handle("/", p)
	srv := &http.Server{Handler: mux}
	go func() { _ = srv.Serve(ln) }()
	t.Cleanup(func() { srv.Close() })
	return issuer
}

// loginHandler is the provider's sign-in form: GET shows it, POST checks
// the credentials and continues the authorization request.
func loginHandler(st *storage.Storage, callback func(context.Context, string) string) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		id := r.FormValue("authRequestID")
		if r.Method == http.MethodPost {
			id = r.FormValue("id")
			if err := st.CheckUsernamePassword(r.FormValue("username"), r.FormValue("password"), id); err == nil {
				http.Redirect(w, r, callback(r.Context(), id), http.StatusFound)
				return
			}
		}
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		_ = providerForm.Execute(w, id)
	}
}

var providerForm = template.Must(template.New("login").Parse(`<!doctype html><html lang="en"><title>Test provider</title>
<h1>Test provider</h1><form id="op-login" method="post" action="/login/username"><input type="hidden" name="id" value="{{.}}">
<label>User <input id="op-username" name="username" autocomplete="username"></label>
<label>Password <input id="op-password" name="password" type="password" autocomplete="current-password"></label>
<button type="submit">Log in</button></form></html>`))

// startSignInServer starts feedbackd, as startServer does, with
// dashboard sign-in through a test provider. Its address is chosen
// first, since the provider must know the redirect URL.
func startSignInServer(t *testing.T) *server {
	t.Helper()
	dir := t.TempDir()
	addr := freeAddr(t)
	s := &server{t: t, addr: addr, base: "http://" + addr,
		db: filepath.Join(dir, "feedback.db"), log: filepath.Join(dir, "feedbackd.log")}
	issuer := startProvider(t, s.base+"/auth/callback")
	s.seed()
	s.startWith(env.webA, "--oidc-issuer", issuer, "--oidc-client-id", opClientID, "--oidc-client-secret", opClientSecret)
	t.Cleanup(func() {
		s.stop()
		if t.Failed() {
			out, _ := os.ReadFile(s.log)
			t.Logf("feedbackd log (last 8 KiB):\n%s", tail(out, 8192))
		}
	})
	return s
}

// startWith runs feedbackd serve, as start does, with extra flags.
func (s *server) startWith(web string, extra ...string) {
	s.t.Helper()
	f, err := os.OpenFile(s.log, os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o644)
	if err != nil {
		s.t.Fatal(err)
	}
	defer f.Close()
	args := append([]string{"serve", "--addr", s.addr, "--db", s.db, "--web-dir", web, "--base-url", s.base,
		"--log-level", "debug"}, extra...)
	cmd := exec.Command(env.feedbackd, args...)
	cmd.Env = append(os.Environ(), "FEEDBACK_VISITOR_LIMIT=100000", "FEEDBACK_POSTER_LIMIT=100000", "FEEDBACK_RATE_LIMIT=100000")
	cmd.Stdout, cmd.Stderr = f, f
	if err := cmd.Start(); err != nil {
		s.t.Fatal(err)
	}
	s.cmd, s.done = cmd, make(chan struct{})
	go func(done chan struct{}) {
		_ = cmd.Wait()
		close(done)
	}(s.done)
	s.waitReady()
}

// sessionCookies describes the dashboard's session cookies that the
// browser holds for base, sorted, as "name Secure HttpOnly SameSite".
func sessionCookies(b *browser, base string) []string {
	b.t.Helper()
	res, err := chromedp.Call(b.ctx, network.GetCookies, network.GetCookiesParams{URLs: []string{base + "/"}})
	if err != nil {
		b.t.Fatalf("Network.getCookies: %v", err)
	}
	var out []string
	for _, c := range res.Cookies {
		if !strings.HasPrefix(c.Name, "__Host-fb_") {
			continue
		}
		d := c.Name
		if c.Secure {
			d += " Secure"
		}
		if c.HTTPOnly {
			d += " HttpOnly"
		}
		out = append(out, d+" "+string(c.SameSite))
	}
	slices.Sort(out)
	return out
}
