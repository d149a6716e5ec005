package idp_test

import (
	"context"
	"crypto/rand"
	"crypto/rsa"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/base64"
	"encoding/xml"
	"html"
	"io"
	"log"
	"math/big"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/crewjam/saml"
	dsig "github.com/russellhaering/goxmldsig"

	"github.com/feedbackhq/feedback/server/idp"
	"github.com/feedbackhq/feedback/shared/feedback"
)

// testSAMLIdP is a SAML IdP (crewjam/saml) whose every user is signed in
// as email, with assertions that tweak may change before they are signed.
type testSAMLIdP struct {
	srv *httptest.Server
	idp *saml.IdentityProvider

	mu    sync.Mutex
	email string
	tweak func(*saml.Assertion)
}

// startSAMLIdP starts an IdP that trusts the SP whose metadata is at
// spMetadata.
func startSAMLIdP(t *testing.T, spMetadata string) *testSAMLIdP {
	t.Helper()
	key, err := rsa.GenerateKey(rand.Reader, 2048)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: "test idp"},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(24 * time.Hour)}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		t.Fatal(err)
	}
	cert, _ := x509.ParseCertificate(der)
	ti := &testSAMLIdP{email: "ann@example.com"}
	ti.srv = httptest.NewServer(nil)
	t.Cleanup(ti.srv.Close)
	base, _ := url.Parse(ti.srv.URL)
	ti.idp = &saml.IdentityProvider{Key: key, Signer: key, Certificate: cert, Logger: log.New(io.Discard, "", 0),
		MetadataURL: *base.ResolveReference(&url.URL{Path: "/metadata"}), SSOURL: *base.ResolveReference(&url.URL{Path: "/sso"}),
		ServiceProviderProvider: spByURL(spMetadata), SessionProvider: ti, AssertionMaker: ti,
		SignatureMethod: dsig.RSASHA256SignatureMethod}
	ti.srv.Config.Handler = ti.idp.Handler()
	return ti
}

// metadata returns the IdP's metadata XML.
func (ti *testSAMLIdP) metadata(t *testing.T) string {
	t.Helper()
	b, err := xml.Marshal(ti.idp.Metadata())
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// set makes the IdP sign in email, with assertions changed by tweak.
func (ti *testSAMLIdP) set(email string, tweak func(*saml.Assertion)) {
	ti.mu.Lock()
	defer ti.mu.Unlock()
	ti.email, ti.tweak = email, tweak
}

// GetSession signs everyone in as the IdP's email.
func (ti *testSAMLIdP) GetSession(_ http.ResponseWriter, _ *http.Request, _ *saml.IdpAuthnRequest) *saml.Session {
	ti.mu.Lock()
	defer ti.mu.Unlock()
	return &saml.Session{ID: "s1", CreateTime: time.Now(), ExpireTime: time.Now().Add(time.Hour), Index: "1",
		NameID: ti.email, NameIDFormat: "urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress", UserEmail: ti.email}
}

// MakeAssertion makes the default assertion, then tweaks it.
func (ti *testSAMLIdP) MakeAssertion(req *saml.IdpAuthnRequest, s *saml.Session) error {
	if err := (saml.DefaultAssertionMaker{}).MakeAssertion(req, s); err != nil {
		return err
	}
	ti.mu.Lock()
	defer ti.mu.Unlock()
	if ti.tweak != nil {
		ti.tweak(req.Assertion)
	}
	return nil
}

// spByURL fetches the SP's metadata from its URL, which is its entity ID.
type spByURL string

func (u spByURL) GetServiceProvider(_ *http.Request, id string) (*saml.EntityDescriptor, error) {
	if id != string(u) {
		return nil, os.ErrNotExist
	}
	resp, err := http.Get(id)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		return nil, err
	}
	var ed saml.EntityDescriptor
	return &ed, xml.Unmarshal(b, &ed)
}

// samlFederate starts a SAML IdP and adds it as the federation "Okta" of
// example.com.
func (e *env) samlFederate(trust bool) (string, *testSAMLIdP) {
	e.t.Helper()
	ti := startSAMLIdP(e.t, e.p().SAMLMetadataURL())
	id, err := e.p().AddSAMLFederation(context.Background(), idp.SAMLFederation{Name: "Okta",
		MetadataXML: ti.metadata(e.t), Domains: []string{"Example.com"}, TrustUpstreamMFA: trust})
	if err != nil {
		e.t.Fatal(err)
	}
	return id, ti
}

// samlResponse is where the browser is after the IdP: its form, which
// posts the SAMLResponse to the ACS.
func (f *flow) samlResponse() page {
	f.e.t.Helper()
	if f.last.status != http.StatusOK || !strings.Contains(f.last.body, `name="SAMLResponse"`) {
		f.e.t.Fatalf("the browser is at %d %s, not the IdP's response: %s", f.last.status, f.last.url, f.last.body)
	}
	return f.last
}

// postACS posts the response form p, with SAMLResponse changed by edit.
func (f *flow) postACS(p page, edit func(string) string) page {
	f.e.t.Helper()
	if edit != nil {
		m := samlResponseRE.FindStringSubmatch(p.body)
		raw, err := base64.StdEncoding.DecodeString(html.UnescapeString(m[1]))
		if err != nil {
			f.e.t.Fatal(err)
		}
		p.body = strings.Replace(p.body, m[1], base64.StdEncoding.EncodeToString([]byte(edit(string(raw)))), 1)
	}
	f.browser.CheckRedirect = nil
	f.last = submitForm(f.e.t, f.browser, p, nil)
	return f.last
}

var samlResponseRE = regexp.MustCompile(`name="SAMLResponse" value="([^"]+)"`)

// samlSignIn runs a sign-in through the button and the IdP, up to the
// IdP's response form.
func (e *env) samlSignIn(r *rp) (*flow, page) {
	e.t.Helper()
	f := e.start(r)
	f.button()
	return f, f.samlResponse()
}

func TestSAMLSignIn(t *testing.T) {
	t.Parallel() // the federation tests run beside each other, after the others
	eachStore(t, func(t *testing.T, db *database) {
		e := newEnv(t, db, 1)
		fedID, ti := e.samlFederate(false)
		r := e.rp()

		f := e.start(r)
		if !strings.Contains(f.last.body, "Sign in with Okta") {
			t.Errorf("the login page has no button of the federation: %s", f.last.body)
		}
		f.password(" Ann@EXAMPLE.com", "") // the email alone goes to the IdP
		resp := f.samlResponse()
		f.postACS(resp, nil)
		first := f.mustExchange()
		want := claims{Email: "ann@example.com", EmailVerified: true, AMR: []string{"fed"}, AuthTime: e.clock.Now().Unix()}
		if first.claims.Email != want.Email || !first.claims.EmailVerified || !slices.Equal(first.claims.AMR, want.AMR) {
			t.Errorf("claims %+v, want %+v", first.claims, want)
		}

		// The same response again: its RelayState counted once.
		if p := f.postACS(resp, nil); p.status != http.StatusBadRequest || !strings.Contains(p.body, "expired") {
			t.Errorf("a replayed response: %d %s", p.status, p.body)
		}
		// The same response in another sign-in: not its request, and its
		// assertion counted once.
		g, _ := e.samlSignIn(r)
		if p := g.postACS(swapRelay(resp, g.last), nil); p.status != http.StatusBadGateway || g.atCallback() {
			t.Errorf("a replayed assertion in another sign-in: %d %s", p.status, p.body)
		}

		g, resp = e.samlSignIn(r)
		g.postACS(resp, nil)
		if second := g.mustExchange(); second.id.Subject != first.id.Subject {
			t.Errorf("a second SAML sign-in made another account: %q then %q", first.id.Subject, second.id.Subject)
		}

		fs, err := e.p().Federations(context.Background())
		if err != nil || len(fs) != 1 || fs[0].ID != fedID || !fs[0].SAML || fs[0].Issuer != ti.idp.MetadataURL.String() ||
			!slices.Equal(fs[0].Domains, []string{"example.com"}) {
			t.Errorf("Federations: %+v, %v", fs, err)
		}
		if err := e.p().RemoveFederation(context.Background(), fedID); err != nil {
			t.Fatal(err)
		}
		if f := e.start(r); strings.Contains(f.last.body, "Sign in with Okta") {
			t.Error("the login page shows a removed federation")
		}
	})
}

// swapRelay returns the response form p with the RelayState of the form
// other.
func swapRelay(p, other page) page {
	re := regexp.MustCompile(`name="RelayState" value="([^"]*)"`)
	p.body = re.ReplaceAllString(p.body, re.FindString(other.body))
	return p
}

func TestSAMLRefusals(t *testing.T) {
	t.Parallel() // the federation tests run beside each other, after the others
	eachStore(t, func(t *testing.T, db *database) {
		e := newEnv(t, db, 1)
		_, ti := e.samlFederate(false)

		// The response counts only in the browser that started the
		// sign-in; another's attempt does not use it up.
		f, resp := e.samlSignIn(e.rp())
		other := e.start(e.rp())
		if p := other.postACS(resp, nil); p.status != http.StatusBadRequest || !strings.Contains(p.body, "expired") {
			t.Errorf("another browser: %d %s, want the expired page", p.status, p.body)
		}
		f.postACS(resp, nil)
		f.mustExchange()

		for _, c := range []struct {
			name   string
			email  string
			tweak  func(*saml.Assertion)
			edit   func(string) string
			before func()
			status int
		}{
			{name: "Tampered", edit: func(s string) string { return strings.ReplaceAll(s, "ann@example.com", "boss@example.com") },
				status: http.StatusBadGateway},
			{name: "WrongAudience", tweak: func(a *saml.Assertion) {
				a.Conditions.AudienceRestrictions[0].Audience.Value = "https://other.example/saml/metadata"
			}, status: http.StatusBadGateway},
			{name: "Expired", tweak: func(a *saml.Assertion) {
				a.Conditions.NotOnOrAfter = time.Now().Add(-10 * time.Minute)
			}, status: http.StatusBadGateway},
			{name: "OtherDomain", email: "ann@other.org", status: http.StatusBadGateway},
			{name: "ExpiredRelayState", before: func() { e.clock.Add(11 * time.Minute) }, status: http.StatusBadRequest},
		} {
			email := c.email
			if email == "" {
				email = "ann@example.com"
			}
			ti.set(email, c.tweak)
			f, resp := e.samlSignIn(e.rp())
			if c.before != nil {
				c.before()
			}
			if p := f.postACS(resp, c.edit); p.status != c.status || f.atCallback() {
				t.Errorf("%s: %d at %s: %s, want %d", c.name, p.status, p.url, p.body, c.status)
			}
		}
	})
}

func TestSAMLMethods(t *testing.T) {
	t.Parallel() // the federation tests run beside each other, after the others
	mfa := func(a *saml.Assertion) {
		a.AuthnStatements[0].AuthnContext.AuthnContextClassRef.Value = "urn:oasis:names:tc:SAML:2.0:ac:classes:TimeSyncToken"
	}
	for _, c := range []struct {
		name     string
		trust    bool
		tweak    func(*saml.Assertion)
		required bool
		want     []string // nil: refused
	}{
		{"Untrusted", false, mfa, false, []string{"fed"}},
		{"TrustedPassword", true, nil, false, []string{"pwd", "fed"}},
		{"TrustedMFA", true, mfa, false, []string{"mfa", "fed"}},
		{"MFARequiredUntrusted", false, mfa, true, nil},
		{"MFARequiredTrustedMFA", true, mfa, true, []string{"mfa", "fed"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			e := newEnv(t, sqliteDB(t), 1)
			_, ti := e.samlFederate(c.trust)
			ti.set("ann@example.com", c.tweak)
			if err := e.p().RequireMFA(context.Background(), c.required); err != nil {
				t.Fatal(err)
			}
			f, resp := e.samlSignIn(e.rp())
			p := f.postACS(resp, nil)
			if c.want == nil {
				if f.atCallback() || p.status != http.StatusForbidden {
					t.Errorf("got %d at %s: %s, want 403", p.status, p.url, p.body)
				}
				return
			}
			if s := f.mustExchange(); !slices.Equal(s.claims.AMR, c.want) {
				t.Errorf("amr %v, want %v", s.claims.AMR, c.want)
			}
		})
	}
}

func TestSAMLAdmin(t *testing.T) {
	t.Parallel()
	e := newEnv(t, sqliteDB(t), 1)
	ti := startSAMLIdP(t, e.p().SAMLMetadataURL())
	for _, c := range []struct {
		name string
		f    idp.SAMLFederation
	}{
		{"NoMetadata", idp.SAMLFederation{Name: "Okta", MetadataXML: "<x/>", Domains: []string{"example.com"}}},
		{"NoName", idp.SAMLFederation{MetadataXML: ti.metadata(t), Domains: []string{"example.com"}}},
		{"NoDomain", idp.SAMLFederation{Name: "Okta", MetadataXML: ti.metadata(t)}},
		{"BadMetadataURL", idp.SAMLFederation{Name: "Okta", MetadataURL: "ftp://x", Domains: []string{"example.com"}}},
	} {
		if _, err := e.p().AddSAMLFederation(context.Background(), c.f); feedback.ErrorCode(err) != feedback.EValidation {
			t.Errorf("%s: %v, want EValidation", c.name, err)
		}
	}
	byURL := idp.SAMLFederation{Name: "Okta", MetadataURL: ti.srv.URL + "/metadata", Domains: []string{"example.com"}}
	if _, err := e.p().AddSAMLFederation(context.Background(), byURL); err != nil {
		t.Errorf("by metadata URL: %v", err)
	}
	byURL.Domains = []string{"example.org", "example.com"}
	if _, err := e.p().AddSAMLFederation(context.Background(), byURL); feedback.ErrorCode(err) != feedback.EConflict {
		t.Errorf("a domain taken: %v, want EConflict", err)
	}
	resp, err := http.Get(e.p().SAMLMetadataURL())
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var ed saml.EntityDescriptor
	if err := xml.NewDecoder(resp.Body).Decode(&ed); err != nil {
		t.Fatal(err)
	}
	if ed.EntityID != e.issuer+"/saml/metadata" || len(ed.SPSSODescriptors) != 1 ||
		ed.SPSSODescriptors[0].AssertionConsumerServices[0].Location != e.issuer+"/saml/acs" {
		t.Errorf("SP metadata: %+v", ed)
	}
}
