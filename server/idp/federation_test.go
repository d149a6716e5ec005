package idp_test

import (
	"context"
	"net/http"
	"net/url"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/feedbackhq/feedback/server/idp"
	"github.com/feedbackhq/feedback/shared/feedback"
)

// federate starts an upstream provider (whose ID tokens have amr, if
// given) and adds it as the federation "Acme" of zitadel.ch.
func (e *env) federate(trust bool, amr []string) (id, issuer string) {
	e.t.Helper()
	issuer = startUpstream(e.t, e.p().FederationRedirectURI(), amr)
	id, err := e.p().AddFederation(context.Background(), idp.Federation{Name: "Acme", Issuer: issuer,
		ClientID: upstreamClient, ClientSecret: upstreamSecret, Domains: []string{"Zitadel.CH"}, TrustUpstreamMFA: trust})
	if err != nil {
		e.t.Fatal(err)
	}
	return id, issuer
}

// federationButtonRE finds the form of a "Sign in with" button.
var federationButtonRE = regexp.MustCompile(`(?s)<form method="post" class="federation">.*?</form>`)

// button posts the form of the login page's first "Sign in with" button.
func (f *flow) button() page {
	f.e.t.Helper()
	m := federationButtonRE.FindString(f.last.body)
	if m == "" {
		f.e.t.Fatalf("no federation button on %s: %s", f.last.url, f.last.body)
	}
	f.last = submitForm(f.e.t, f.browser, page{url: f.last.url, body: m}, nil)
	return f.last
}

// upstreamSignIn signs in at the upstream's login page, where the browser
// is, and follows the redirects back.
func (f *flow) upstreamSignIn() page {
	f.e.t.Helper()
	if f.last.url.Hostname() != "localhost" || f.last.url.Path != "/login/username" {
		f.e.t.Fatalf("the browser is at %d %s, not the upstream's login: %s", f.last.status, f.last.url, f.last.body)
	}
	return f.submit(map[string]string{"username": upstreamUser, "password": upstreamPassword})
}

// federatedSignIn runs a sign-in through the button and the upstream.
func (e *env) federatedSignIn(r *rp) *signedIn {
	e.t.Helper()
	f := e.start(r)
	f.button()
	f.upstreamSignIn()
	return f.mustExchange()
}

func TestFederatedSignIn(t *testing.T) {
	t.Parallel() // the federation tests run beside each other, after the others
	eachStore(t, func(t *testing.T, db *database) {
		e := newEnv(t, db, 1)
		fedID, _ := e.federate(false, nil)
		r := e.rp()

		f := e.start(r)
		if !strings.Contains(f.last.body, "Sign in with Acme") {
			t.Errorf("the login page has no button of the federation: %s", f.last.body)
		}
		f.password(" Someone@ZITADEL.ch", "") // the email alone goes upstream
		if f.last.url.Hostname() != "localhost" || f.last.url.Query().Get("authRequestID") == "" {
			t.Fatalf("typing a federated email ended at %s", f.last.url)
		}
		f.upstreamSignIn()
		first := f.mustExchange()
		want := claims{Email: upstreamEmail, EmailVerified: true, AMR: []string{"fed"}, AuthTime: e.clock.Now().Unix()}
		if diff := cmp.Diff(want, first.claims); diff != "" {
			t.Errorf("claims (-want +got):\n%s", diff)
		}

		second := e.federatedSignIn(r)
		if second.id.Subject != first.id.Subject {
			t.Errorf("a second federated sign-in made another account: %q then %q", first.id.Subject, second.id.Subject)
		}

		// The account has no password: without the federation, it cannot
		// sign in with one.
		if err := e.p().RemoveFederation(context.Background(), fedID); err != nil {
			t.Fatal(err)
		}
		f = e.start(r)
		if strings.Contains(f.last.body, "Sign in with Acme") {
			t.Error("the login page shows a removed federation")
		}
		if p := f.password(upstreamEmail, upstreamPassword); p.status != http.StatusUnauthorized {
			t.Errorf("a password for the federated account: %d %s, want 401", p.status, p.body)
		}
	})
}

func TestFederatedMethods(t *testing.T) {
	t.Parallel() // the federation tests run beside each other, after the others
	for _, c := range []struct {
		name     string
		trust    bool
		upstream []string // the upstream's amr; nil: the example's ["pwd"]
		mfa      bool     // the organisation requires a second factor
		want     []string // amr; nil: refused
	}{
		{"Untrusted", false, []string{"pwd", "otp"}, false, []string{"fed"}},
		{"Trusted", true, nil, false, []string{"pwd", "fed"}},
		{"TrustedWithOTP", true, []string{"pwd", "otp"}, false, []string{"pwd", "otp", "fed"}},
		{"MFARequiredUntrusted", false, []string{"pwd", "otp"}, true, nil},
		{"MFARequiredTrustedOneFactor", true, nil, true, nil},
		{"MFARequiredTrustedOTP", true, []string{"pwd", "otp"}, true, []string{"pwd", "otp", "fed"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			e := newEnv(t, sqliteDB(t), 1)
			e.federate(c.trust, c.upstream)
			if err := e.p().RequireMFA(context.Background(), c.mfa); err != nil {
				t.Fatal(err)
			}
			f := e.start(e.rp())
			f.button()
			p := f.upstreamSignIn()
			if c.want == nil {
				if f.atCallback() || p.status != http.StatusForbidden || !strings.Contains(p.body, "Two-step verification required") {
					t.Errorf("got %d at %s: %s, want the 403 page", p.status, p.url, p.body)
				}
				return
			}
			if s := f.mustExchange(); !slices.Equal(s.claims.AMR, c.want) {
				t.Errorf("amr %v, want %v", s.claims.AMR, c.want)
			}
		})
	}
}

func TestFederatedPasswordRefused(t *testing.T) {
	t.Parallel() // the federation tests run beside each other, after the others
	eachStore(t, func(t *testing.T, db *database) {
		e := newEnv(t, db, 1)
		e.federate(false, nil)
		e.account("ann@zitadel.ch", password) // made before the federation
		f := e.start(e.rp())
		p := f.password("ann@zitadel.ch", password)
		if p.status != http.StatusForbidden || !strings.Contains(p.body, "Your organisation signs in through Acme") ||
			f.atCallback() {
			t.Errorf("a password of a federated domain: %d %s", p.status, p.body)
		}
	})
}

// stopAt makes the browser stop before it follows a redirect to path.
func (f *flow) stopAt(path string) {
	f.browser.CheckRedirect = func(req *http.Request, _ []*http.Request) error {
		if req.URL.Path == path {
			return http.ErrUseLastResponse
		}
		return nil
	}
}

// location returns where the last page redirects.
func (f *flow) location() *url.URL {
	f.e.t.Helper()
	u, err := f.last.url.Parse(f.last.header.Get("Location"))
	if err != nil || f.last.status != http.StatusFound && f.last.status != http.StatusSeeOther {
		f.e.t.Fatalf("%d at %s does not redirect: %v", f.last.status, f.last.url, err)
	}
	return u
}

// get opens u in the browser.
func (f *flow) get(u *url.URL) page {
	f.e.t.Helper()
	f.browser.CheckRedirect = nil
	f.last = f.do(http.NewRequest(http.MethodGet, u.String(), nil))
	return f.last
}

func TestFederationCallbackState(t *testing.T) {
	t.Parallel() // the federation tests run beside each other, after the others
	eachStore(t, func(t *testing.T, db *database) {
		e := newEnv(t, db, 1)
		e.federate(false, nil)
		f := e.start(e.rp())
		f.button()
		f.stopAt("/idp/federation/callback")
		f.upstreamSignIn()
		callback := f.location()

		tampered := *callback
		q := tampered.Query()
		q.Set("state", q.Get("state")+"x")
		tampered.RawQuery = q.Encode()
		other := e.start(e.rp()) // another browser, without the state's cookie
		for name, try := range map[string]func() page{
			"Tampered":       func() page { return f.get(&tampered) },
			"WithoutState":   func() page { q := *callback; q.RawQuery = "code=" + q.Query().Get("code"); return f.get(&q) },
			"AnotherBrowser": func() page { return other.get(callback) },
		} {
			if p := try(); p.status != http.StatusBadRequest || !strings.Contains(p.body, "expired") {
				t.Errorf("%s: %d at %s: %s, want the expired page", name, p.status, p.url, p.body)
			}
		}

		f.get(callback)
		f.mustExchange()
		if p := f.get(callback); p.status != http.StatusBadRequest { // a state counts once
			t.Errorf("the callback again: %d %s", p.status, p.body)
		}
	})
}

func TestFederationUpstreamError(t *testing.T) {
	t.Parallel() // the federation tests run beside each other, after the others
	eachStore(t, func(t *testing.T, db *database) {
		e := newEnv(t, db, 1)
		_, issuer := e.federate(false, nil)
		f := e.start(e.rp())
		login := f.last.url
		f.stopAt("/authorize")
		f.button()
		authorize := f.location()
		if !strings.HasPrefix(authorize.String(), issuer+"/authorize?") {
			t.Fatalf("the button redirects to %s", authorize)
		}
		q := authorize.Query()
		for k, want := range map[string]string{"client_id": upstreamClient, "code_challenge_method": "S256",
			"redirect_uri": e.issuer + "/federation/callback", "response_type": "code"} {
			if q.Get(k) != want {
				t.Errorf("the upstream authorization request has %s=%q, want %q", k, q.Get(k), want)
			}
		}
		if q.Get("nonce") == "" || q.Get("state") == "" || q.Get("code_challenge") == "" {
			t.Errorf("the upstream authorization request lacks nonce, state or PKCE: %s", authorize)
		}

		back := url.Values{"state": {q.Get("state")}, "error": {"access_denied"}}
		p := f.get(&url.URL{Scheme: login.Scheme, Host: login.Host, Path: "/idp/federation/callback", RawQuery: back.Encode()})
		if p.status != http.StatusForbidden || !strings.Contains(p.body, "Signing in with Acme was cancelled or refused.") {
			t.Fatalf("an upstream access_denied: %d %s", p.status, p.body)
		}
		m := regexp.MustCompile(`<a href="([^"]+)">Back to sign-in</a>`).FindStringSubmatch(p.body)
		if m == nil {
			t.Fatalf("the error page has no way back: %s", p.body)
		}
		u, _ := p.url.Parse(strings.ReplaceAll(m[1], "&amp;", "&"))
		if p := f.get(u); p.status != http.StatusOK || p.url.String() != login.String() {
			t.Fatalf("back to sign-in: %d at %s, want %s", p.status, p.url, login)
		}
		f.button()
		f.upstreamSignIn()
		f.mustExchange()
	})
}

func TestFederationAdmin(t *testing.T) {
	t.Parallel() // the federation tests run beside each other, after the others
	eachStore(t, func(t *testing.T, db *database) {
		e := newEnv(t, db, 1)
		ctx := context.Background()
		good := idp.Federation{Name: "Acme", Issuer: "https://login.example.com", ClientID: "c", ClientSecret: "s",
			Domains: []string{"example.com", "@Example.ORG", "example.com"}, TrustUpstreamMFA: true}
		id, err := e.p().AddFederation(ctx, good)
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range []struct {
			name string
			mod  func(f *idp.Federation)
			code string
		}{
			{"NoName", func(f *idp.Federation) { f.Name = " " }, feedback.EValidation},
			{"BadIssuer", func(f *idp.Federation) { f.Issuer = "login.example.com" }, feedback.EValidation},
			{"NoSecret", func(f *idp.Federation) { f.ClientSecret = "" }, feedback.EValidation},
			{"NoDomain", func(f *idp.Federation) { f.Domains = nil }, feedback.EValidation},
			{"BadDomain", func(f *idp.Federation) { f.Domains = []string{"exa mple.com"} }, feedback.EValidation},
			{"DomainTaken", func(f *idp.Federation) { f.Domains = []string{"other.net", "example.org"} }, feedback.EConflict},
		} {
			f := good
			f.Domains = slices.Clone(good.Domains)
			c.mod(&f)
			if _, err := e.p().AddFederation(ctx, f); feedback.ErrorCode(err) != c.code {
				t.Errorf("%s: %v, want %s", c.name, err, c.code)
			}
		}

		fs, err := e.p().Federations(ctx)
		if err != nil {
			t.Fatal(err)
		}
		want := []idp.Federation{{ID: id, Name: "Acme", Issuer: "https://login.example.com", ClientID: "c",
			Domains: []string{"example.com", "example.org"}, TrustUpstreamMFA: true}}
		if diff := cmp.Diff(want, fs, cmpopts.IgnoreFields(idp.Federation{}, "CreatedAt")); diff != "" {
			t.Errorf("Federations (-want +got):\n%s", diff)
		}
		if err := e.p().RemoveFederation(ctx, id); err != nil {
			t.Fatal(err)
		}
		for _, missing := range []string{id, "not-an-id"} {
			if err := e.p().RemoveFederation(ctx, missing); feedback.ErrorCode(err) != feedback.ENotFound {
				t.Errorf("RemoveFederation(%q): %v, want ENotFound", missing, err)
			}
		}
		if fs, err := e.p().Federations(ctx); err != nil || len(fs) != 0 {
			t.Errorf("after removal: %v, %v", fs, err)
		}
	})
}
