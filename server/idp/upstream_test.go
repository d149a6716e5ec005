package idp_test

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

// The upstream provider's user, and our registration with it. The
// example storage names its user after the issuer's host name, and gives
// it the address test-user@zitadel.ch, verified.
const (
	upstreamUser     = "test-user@localhost"
	upstreamPassword = "verysecure"
	upstreamEmail    = "test-user@zitadel.ch"
	upstreamDomain   = "zitadel.ch"
	upstreamClient   = "feedback-idp"
	upstreamSecret   = "feedback-idp-upstream-secret"
)

// startUpstream serves an organisation's OpenID provider on
// http://localhost: zitadel/oidc's op with the example storage and a
// minimal login form, our provider registered with redirect. Its ID
// tokens have amr, when given, instead of the example's ["pwd"]; they
// carry no email, which only userinfo gives. It returns the issuer.
func startUpstream(t *testing.T, redirect string, amr []string) string {
	t.Helper()
	ln, err := net.Listen("tcp", "localhost:0")
	if err != nil {
		t.Fatal(err)
	}
	_, port, _ := net.SplitHostPort(ln.Addr().String())
	issuer := "http://localhost:" + port
	st := storage.NewStorageWithClients(storage.NewUserStore(issuer),
		map[string]*storage.Client{upstreamClient: storage.WebClient(upstreamClient, upstreamSecret, redirect)})
	var s op.Storage = st
	if amr != nil {
		s = amrStorage{st, amr}
	}
	p, err := op.NewProvider(&op.Config{CryptoKey: sha256.Sum256([]byte(t.Name())), CodeMethodS256: true,
		AuthMethodPost: true, SupportedUILocales: []language.Tag{language.English}},
		s, op.StaticIssuer(issuer), op.WithAllowInsecure())
	if err != nil {
		t.Fatal(err)
	}
	mux := http.NewServeMux()
	mux.Handle("/login/username", op.NewIssuerInterceptor(p.IssuerFromRequest).HandlerFunc(
		upstreamLogin(st, op.AuthCallbackURL(p))))
	mux.Handle("/", p)
	srv := &http.Server{Handler: mux}
	go func() { _ = srv.Serve(ln) }()
	t.Cleanup(func() { srv.Close() })
	return issuer
}

// amrStorage is the example storage whose sign-ins have other methods.
type amrStorage struct {
	*storage.Storage
	amr []string
}

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

// upstreamLogin is the upstream's sign-in form: GET shows it, POST checks
// the credentials and continues the authorization request.
func upstreamLogin(st *storage.Storage, callback func(context.Context, string) string) http.HandlerFunc {
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
		_ = upstreamForm.Execute(w, id)
	}
}

var upstreamForm = template.Must(template.New("login").Parse(`<!doctype html><form method="post" action="/login/username">
<input type="hidden" name="id" value="{{.}}"><input name="username"><input name="password" type="password">
<button>Sign in</button></form>`))
