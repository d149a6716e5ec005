package idp

import (
	"context"
	"crypto/subtle"
	"errors"
	"net/http"
	"strings"
	"time"

	"github.com/feedbackhq/feedback/server"
	"github.com/feedbackhq/feedback/server/secret"
)

// Kinds of federation.
const (
	KindOIDC = "oidc" // an organisation's OpenID provider (server/idp/oidcfed)
	KindSAML = "saml" // an organisation's SAML 2.0 IdP (server/idp/samlfed)
)

// A Federator signs people in through the organisations' identity
// providers of one kind of federation: it sends the browser of a sign-in
// there, takes it back on its own routes, and hands who signed in to the
// provider through [Host]. [Config].Federators makes them; the provider
// knows them only through this interface, and they know the provider
// only through Host.
type Federator interface {
	// Kind is the kind of federation it serves: KindOIDC or KindSAML.
	Kind() string
	// Start sends the browser of sign-in s to f's provider; loginHint is
	// the address typed on the login page, or "". It writes the page of
	// what went wrong itself, through the Host.
	Start(w http.ResponseWriter, r *http.Request, s *SignIn, f *Federation, loginHint string)
	// Routes returns the requests it serves under the issuer's path.
	Routes() []Route
}

// A Preparer is a Federator that completes and checks the federations of
// its kind before [Provider.AddFederation] stores them (the SAML one
// reads the IdP's metadata). It returns feedback.EValidation errors.
type Preparer interface {
	Prepare(ctx context.Context, f *Federation) error
}

// Route is a request pattern that a Federator serves under the issuer's
// path.
type Route struct {
	// Pattern is an http.ServeMux pattern of a method and a path under
	// the issuer's: "GET /federation/callback".
	Pattern string
	Handler http.Handler
	// Page serves it as the provider's pages are: uncacheable,
	// unframeable, without scripts, and under cross-origin protection
	// unless CrossSite (a form that another site posts: a SAML IdP's).
	Page, CrossSite bool
}

// Host is the provider as a Federator sees it.
type Host interface {
	// Env returns what federators work with.
	Env() Env
	// Resume returns the sign-in signInID, in progress, and the
	// federation federationID that it went to, when a federation's
	// provider sends the browser back; or writes the page that says the
	// sign-in has expired (or an internal error) and returns false.
	Resume(w http.ResponseWriter, r *http.Request, signInID, federationID string) (*SignIn, *Federation, bool)
	// Finish completes sign-in s of the person that f's provider vouched
	// for, making their account on a first sign-in, and continues to the
	// client; or writes the page that refuses it: an address outside f's
	// domains, a second factor required that f does not vouch for.
	Finish(w http.ResponseWriter, r *http.Request, s *SignIn, f *Federation, id Identity)
	// Fail writes the page of a sign-in through f that did not succeed:
	// a [Refusal] of f's provider, [ErrUnverified], or a fault of f's
	// provider or of its answer, which is logged.
	Fail(w http.ResponseWriter, r *http.Request, s *SignIn, f *Federation, err error)
	// Error writes the page that says the sign-in has expired, for
	// [ErrExpired] and the store's feedback.ENotFound, or else logs err
	// and writes the page of an internal error.
	Error(w http.ResponseWriter, r *http.Request, err error)
}

// Env is what federators work with: the provider's configuration.
type Env struct {
	// Issuer is the provider's URL; Prefix its path without the trailing
	// slash ("" or "/idp").
	Issuer, Prefix string
	// Now is the provider's clock, in UTC with microseconds.
	Now func() time.Time
	// Keys seals what federators store (PKCE verifiers).
	Keys *secret.Keyring
	// Store keeps the federations and the sign-ins in progress at them.
	Store server.IdPFederationStore
	// HTTPClient reaches the federations' providers.
	HTTPClient *http.Client
	// Insecure allows http URLs of federations' providers.
	Insecure bool
}

// URL returns the absolute URL of path under the issuer.
func (e Env) URL(path string) string { return strings.TrimSuffix(e.Issuer, "/") + path }

// Secure reports whether the issuer is https: cookies are Secure then.
func (e Env) Secure() bool { return strings.HasPrefix(e.Issuer, "https:") }

// SignIn is a sign-in in progress that a federation's provider is asked
// to complete.
type SignIn struct{ a *authRequest }

// ID returns the sign-in's id, which federators store with what they
// send upstream.
func (s *SignIn) ID() string { return s.a.ID }

// Identity is who a federation's provider says signed in.
type Identity struct {
	Email string   // as the provider gave it
	AMR   []string // the methods the provider reports, if any
}

// ErrUnverified refuses an identity whose address the federation does not
// vouch for.
var ErrUnverified = errors.New("idp: the upstream identity has no verified address of the federation's domains")

// ErrExpired is what [Host.Error] shows as an expired sign-in: something
// that names a sign-in (a state, a RelayState, a cookie) is unknown, has
// expired, or was used.
var ErrExpired = errNotFound

// Refusal is an error that a federation's provider answered instead of
// signing someone in (OAuth's error parameter, e.g. access_denied).
type Refusal struct{ Code string }

// Error says what the upstream answered.
func (e *Refusal) Error() string { return "idp: the upstream answered " + e.Code }

// Bound reports whether the browser of r holds the cookie that binds
// value to it (gone.Name, with value value), and deletes that cookie
// with gone either way: a callback counts only in the browser that
// started the sign-in, and once.
func Bound(w http.ResponseWriter, r *http.Request, value string, gone *http.Cookie) bool {
	c, err := r.Cookie(gone.Name)
	if err == nil {
		http.SetCookie(w, gone)
	}
	return value != "" && err == nil && subtle.ConstantTimeCompare([]byte(c.Value), []byte(value)) == 1
}
