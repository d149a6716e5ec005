// Package oidctest serves a real OpenID provider for tests: zitadel/oidc's
// op package over its example storage (users in memory) with a minimal
// login form, on http://localhost:PORT. The tests of the relying party,
// the embedded provider's federation and the browser end to end sign in
// through it.
package oidctest

import (
	"context"
	"crypto/sha256"
	"html/template"
	"net"
	"net/http"
	"testing"

	"github.com/zitadel/oidc/v3/example/server/storage"
	"github.com/zitadel/oidc/v3/pkg/op"
	"golang.org/x/text/language"
)

// The example storage's user: it logs in as User (test-user@ and the
// issuer's host name) with Password, and its verified address is Email.
const (
	User     = "test-user@localhost"
	Password = "verysecure"
	Email    = "test-user@zitadel.ch"
)

// Client is the registration of the party under test.
type Client struct {
	ID, Secret string
	Redirect   string
	// AMR, when set, replaces the example's ["pwd"] in ID tokens.
	AMR []string
}

// Start serves a provider with c registered and returns its issuer; it
// closes when tb ends. (The example's own SetupServer writes a
// package-level default, which races when tests start providers in
// parallel.)
func Start(tb testing.TB, c Client) string {
	tb.Helper()
	ln, err := net.Listen("tcp", "localhost:0")
	if err != nil {
		tb.Fatal(err)
	}
	_, port, _ := net.SplitHostPort(ln.Addr().String())
	issuer := "http://localhost:" + port
	st := storage.NewStorageWithClients(storage.NewUserStore(issuer),
		map[string]*storage.Client{c.ID: storage.WebClient(c.ID, c.Secret, c.Redirect)})
	var s op.Storage = st
	if c.AMR != nil {
		s = amrStorage{st, c.AMR}
	}
	p, err := op.NewProvider(&op.Config{CryptoKey: sha256.Sum256([]byte(tb.Name())), CodeMethodS256: true,
		AuthMethodPost: true, GrantTypeRefreshToken: true, SupportedUILocales: []language.Tag{language.English}},
		s, op.StaticIssuer(issuer), op.WithAllowInsecure())
	if err != nil {
		tb.Fatal(err)
	}
	mux := http.NewServeMux()
	mux.Handle("/login/username", op.NewIssuerInterceptor(p.IssuerFromRequest).HandlerFunc(login(st, op.AuthCallbackURL(p))))
	mux.Handle("/", p)
	srv := &http.Server{Handler: mux}
	go func() { _ = srv.Serve(ln) }()
	tb.Cleanup(func() { srv.Close() })
	return issuer
}

// login is the sign-in form: GET shows it, POST checks the credentials
// and continues the authorization request.
func login(st *storage.Storage, callback func(context.Context, string) string) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		id := r.FormValue("authRequestID")
		if r.Method == http.MethodPost {
			id = r.FormValue("id")
			if err := st.CheckUsernamePassword(r.FormValue("username"), r.FormValue("password"), id); err == nil {
				http.Redirect(w, r, callback(r.Context(), id), http.StatusFound)
				return
			}
		}
		w.Header().Set("Content-Type", "text/html")
		_ = form.Execute(w, id)
	}
}

var form = template.Must(template.New("login").Parse(`<!doctype html><html lang="en"><title>Sign in</title>
<h1>Test provider</h1><form id="op-login" method="post" action="/login/username"><input type="hidden" name="id" value="{{.}}">
<label>User <input id="op-username" name="username" autocomplete="username"></label>
<label>Password <input id="op-password" name="password" type="password" autocomplete="current-password"></label>
<button type="submit">Sign in</button></form></html>`))

// amrStorage is the example storage whose sign-ins report other methods.
type amrStorage struct {
	*storage.Storage
	amr []string
}

// AuthRequestByCode implements op.Storage.
func (s amrStorage) AuthRequestByCode(ctx context.Context, code string) (op.AuthRequest, error) {
	a, err := s.Storage.AuthRequestByCode(ctx, code)
	if err != nil {
		return nil, err
	}
	return amrRequest{a, s.amr}, nil
}

type amrRequest struct {
	op.AuthRequest
	amr []string
}

func (a amrRequest) GetAMR() []string { return a.amr }
