package oidcfed_test

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
	"github.com/feedbackhq/feedback/server/idp/internal/idptest"
	"github.com/feedbackhq/feedback/server/idp/oidcfed"
	"github.com/feedbackhq/feedback/shared/feedback"
)

// federate starts an upstream provider (whose ID tokens have amr, if
// given) and adds it as the federation "Acme" of zitadel.ch.
func federate(e *idptest.Env, trust bool, amr []string) (id, issuer string) {
	e.T.Helper()
	issuer = startUpstream(e.T, oidcfed.RedirectURI(e.Issuer), amr)
	id, err := e.P().AddFederation(context.Background(), idp.Federation{Name: "Acme", Issuer: issuer,
		ClientID: upstreamClient, ClientSecret: upstreamSecret, Domains: []string{"Zitadel.CH"}, TrustUpstreamMFA: trust})
	if err != nil {
		e.T.Fatal(err)
	}
	return id, issuer
}

// upstreamSignIn signs in at the upstream's login idptest.Page, where the browser
// is, and follows the redirects back.
func upstreamSignIn(f *idptest.Flow) idptest.Page {
	f.Env.T.Helper()
	if f.Last.URL.Hostname() != "localhost" || f.Last.URL.Path != "/login/username" {
		f.Env.T.Fatalf("the browser is at %d %s, not the upstream's login: %s", f.Last.Status, f.Last.URL, f.Last.Body)
	}
	return f.Submit(map[string]string{"username": upstreamUser, "password": upstreamPassword})
}

// federatedSignIn runs a sign-in through the button and the upstream.
func federatedSignIn(e *idptest.Env, r *idptest.RP) *idptest.SignedIn {
	e.T.Helper()
	f := e.Start(r)
	f.Button()
	upstreamSignIn(f)
	return f.MustExchange()
}

func TestFederatedSignIn(t *testing.T) {
	t.Parallel() // the federation tests run beside each other, after the others
	idptest.EachStore(t, func(t *testing.T, db *idptest.Database) {
		e := idptest.NewEnv(t, db, 1)
		fedID, _ := federate(e, false, nil)
		r := e.RP()

		f := e.Start(r)
		if !strings.Contains(f.Last.Body, "Sign in with Acme") {
			t.Errorf("the login page has no button of the federation: %s", f.Last.Body)
		}
		f.Password(" Someone@ZITADEL.ch", "") // the email alone goes upstream
		if f.Last.URL.Hostname() != "localhost" || f.Last.URL.Query().Get("authRequestID") == "" {
			t.Fatalf("typing a federated email ended at %s", f.Last.URL)
		}
		upstreamSignIn(f)
		first := f.MustExchange()
		want := idptest.Claims{Email: upstreamEmail, EmailVerified: true, AMR: []string{"fed"}, AuthTime: e.Clock.Now().Unix()}
		if diff := cmp.Diff(want, first.Claims); diff != "" {
			t.Errorf("claims (-want +got):\n%s", diff)
		}

		second := federatedSignIn(e, r)
		if second.ID.Subject != first.ID.Subject {
			t.Errorf("a second federated sign-in made another account: %q then %q", first.ID.Subject, second.ID.Subject)
		}

		// The account has no password: without the federation, it cannot
		// sign in with one.
		if err := e.P().RemoveFederation(context.Background(), fedID); err != nil {
			t.Fatal(err)
		}
		f = e.Start(r)
		if strings.Contains(f.Last.Body, "Sign in with Acme") {
			t.Error("the login page shows a removed federation")
		}
		if p := f.Password(upstreamEmail, upstreamPassword); p.Status != http.StatusUnauthorized {
			t.Errorf("a password for the federated account: %d %s, want 401", p.Status, p.Body)
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
			e := idptest.NewEnv(t, idptest.SQLiteDB(t), 1)
			federate(e, c.trust, c.upstream)
			if err := e.P().RequireMFA(context.Background(), c.mfa); err != nil {
				t.Fatal(err)
			}
			f := e.Start(e.RP())
			f.Button()
			p := upstreamSignIn(f)
			if c.want == nil {
				if f.AtCallback() || p.Status != http.StatusForbidden || !strings.Contains(p.Body, "Two-step verification required") {
					t.Errorf("got %d at %s: %s, want the 403 page", p.Status, p.URL, p.Body)
				}
				return
			}
			if s := f.MustExchange(); !slices.Equal(s.Claims.AMR, c.want) {
				t.Errorf("amr %v, want %v", s.Claims.AMR, c.want)
			}
		})
	}
}

func TestFederatedPasswordRefused(t *testing.T) {
	t.Parallel() // the federation tests run beside each other, after the others
	idptest.EachStore(t, func(t *testing.T, db *idptest.Database) {
		e := idptest.NewEnv(t, db, 1)
		federate(e, false, nil)
		e.Account("ann@zitadel.ch", password) // made before the federation
		f := e.Start(e.RP())
		p := f.Password("ann@zitadel.ch", password)
		if p.Status != http.StatusForbidden || !strings.Contains(p.Body, "Your organisation signs in through Acme") ||
			f.AtCallback() {
			t.Errorf("a password of a federated domain: %d %s", p.Status, p.Body)
		}
	})
}

func TestFederationCallbackState(t *testing.T) {
	t.Parallel() // the federation tests run beside each other, after the others
	idptest.EachStore(t, func(t *testing.T, db *idptest.Database) {
		e := idptest.NewEnv(t, db, 1)
		federate(e, false, nil)
		f := e.Start(e.RP())
		f.Button()
		f.StopAt("/idp/federation/callback")
		upstreamSignIn(f)
		callback := f.Location()

		tampered := *callback
		q := tampered.Query()
		q.Set("state", q.Get("state")+"x")
		tampered.RawQuery = q.Encode()
		other := e.Start(e.RP()) // another browser, without the state's cookie
		for name, try := range map[string]func() idptest.Page{
			"Tampered":       func() idptest.Page { return f.Get(&tampered) },
			"WithoutState":   func() idptest.Page { q := *callback; q.RawQuery = "code=" + q.Query().Get("code"); return f.Get(&q) },
			"AnotherBrowser": func() idptest.Page { return other.Get(callback) },
		} {
			if p := try(); p.Status != http.StatusBadRequest || !strings.Contains(p.Body, "expired") {
				t.Errorf("%s: %d at %s: %s, want the expired page", name, p.Status, p.URL, p.Body)
			}
		}

		f.Get(callback)
		f.MustExchange()
		if p := f.Get(callback); p.Status != http.StatusBadRequest { // a state counts once
			t.Errorf("the callback again: %d %s", p.Status, p.Body)
		}
	})
}

func TestFederationUpstreamError(t *testing.T) {
	t.Parallel() // the federation tests run beside each other, after the others
	idptest.EachStore(t, func(t *testing.T, db *idptest.Database) {
		e := idptest.NewEnv(t, db, 1)
		_, issuer := federate(e, false, nil)
		f := e.Start(e.RP())
		login := f.Last.URL
		f.StopAt("/authorize")
		f.Button()
		authorize := f.Location()
		if !strings.HasPrefix(authorize.String(), issuer+"/authorize?") {
			t.Fatalf("the button redirects to %s", authorize)
		}
		q := authorize.Query()
		for k, want := range map[string]string{"client_id": upstreamClient, "code_challenge_method": "S256",
			"redirect_uri": e.Issuer + "/federation/callback", "response_type": "code"} {
			if q.Get(k) != want {
				t.Errorf("the upstream authorization request has %s=%q, want %q", k, q.Get(k), want)
			}
		}
		if q.Get("nonce") == "" || q.Get("state") == "" || q.Get("code_challenge") == "" {
			t.Errorf("the upstream authorization request lacks nonce, state or PKCE: %s", authorize)
		}

		back := url.Values{"state": {q.Get("state")}, "error": {"access_denied"}}
		p := f.Get(&url.URL{Scheme: login.Scheme, Host: login.Host, Path: "/idp/federation/callback", RawQuery: back.Encode()})
		if p.Status != http.StatusForbidden || !strings.Contains(p.Body, "Signing in with Acme was cancelled or refused.") {
			t.Fatalf("an upstream access_denied: %d %s", p.Status, p.Body)
		}
		m := regexp.MustCompile(`<a href="([^"]+)">Back to sign-in</a>`).FindStringSubmatch(p.Body)
		if m == nil {
			t.Fatalf("the error page has no way back: %s", p.Body)
		}
		u, _ := p.URL.Parse(strings.ReplaceAll(m[1], "&amp;", "&"))
		if p := f.Get(u); p.Status != http.StatusOK || p.URL.String() != login.String() {
			t.Fatalf("back to sign-in: %d at %s, want %s", p.Status, p.URL, login)
		}
		f.Button()
		upstreamSignIn(f)
		f.MustExchange()
	})
}

func TestFederationAdmin(t *testing.T) {
	t.Parallel() // the federation tests run beside each other, after the others
	idptest.EachStore(t, func(t *testing.T, db *idptest.Database) {
		e := idptest.NewEnv(t, db, 1)
		ctx := context.Background()
		good := idp.Federation{Name: "Acme", Issuer: "https://login.example.com", ClientID: "c", ClientSecret: "s",
			Domains: []string{"example.com", "@Example.ORG", "example.com"}, TrustUpstreamMFA: true}
		id, err := e.P().AddFederation(ctx, good)
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
			if _, err := e.P().AddFederation(ctx, f); feedback.ErrorCode(err) != c.code {
				t.Errorf("%s: %v, want %s", c.name, err, c.code)
			}
		}

		fs, err := e.P().Federations(ctx)
		if err != nil {
			t.Fatal(err)
		}
		want := []idp.Federation{{ID: id, Name: "Acme", Kind: idp.KindOIDC, Issuer: "https://login.example.com", ClientID: "c",
			Domains: []string{"example.com", "example.org"}, TrustUpstreamMFA: true}}
		if diff := cmp.Diff(want, fs, cmpopts.IgnoreFields(idp.Federation{}, "CreatedAt")); diff != "" {
			t.Errorf("Federations (-want +got):\n%s", diff)
		}
		if err := e.P().RemoveFederation(ctx, id); err != nil {
			t.Fatal(err)
		}
		for _, missing := range []string{id, "not-an-id"} {
			if err := e.P().RemoveFederation(ctx, missing); feedback.ErrorCode(err) != feedback.ENotFound {
				t.Errorf("RemoveFederation(%q): %v, want ENotFound", missing, err)
			}
		}
		if fs, err := e.P().Federations(ctx); err != nil || len(fs) != 0 {
			t.Errorf("after removal: %v, %v", fs, err)
		}
	})
}
