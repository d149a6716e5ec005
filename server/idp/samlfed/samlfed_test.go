package samlfed_test

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
	"github.com/feedbackhq/feedback/server/idp/internal/idptest"
	"github.com/feedbackhq/feedback/server/idp/samlfed"
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
func samlFederate(e *idptest.Env, trust bool) (string, *testSAMLIdP) {
	e.T.Helper()
	ti := startSAMLIdP(e.T, samlfed.MetadataURL(e.Issuer))
	id, err := e.P().AddFederation(context.Background(), idp.Federation{Kind: idp.KindSAML, Name: "Okta",
		SAMLMetadata: ti.metadata(e.T), Domains: []string{"Example.com"}, TrustUpstreamMFA: trust})
	if err != nil {
		e.T.Fatal(err)
	}
	return id, ti
}

// samlResponse is where the browser is after the IdP: its form, which
// posts the SAMLResponse to the ACS.
func samlResponse(f *idptest.Flow) idptest.Page {
	f.Env.T.Helper()
	if f.Last.Status != http.StatusOK || !strings.Contains(f.Last.Body, `name="SAMLResponse"`) {
		f.Env.T.Fatalf("the browser is at %d %s, not the IdP's response: %s", f.Last.Status, f.Last.URL, f.Last.Body)
	}
	return f.Last
}

// postACS posts the response form p, with SAMLResponse changed by edit.
func postACS(f *idptest.Flow, p idptest.Page, edit func(string) string) idptest.Page {
	f.Env.T.Helper()
	if edit != nil {
		m := samlResponseRE.FindStringSubmatch(p.Body)
		raw, err := base64.StdEncoding.DecodeString(html.UnescapeString(m[1]))
		if err != nil {
			f.Env.T.Fatal(err)
		}
		p.Body = strings.Replace(p.Body, m[1], base64.StdEncoding.EncodeToString([]byte(edit(string(raw)))), 1)
	}
	f.Browser.CheckRedirect = nil
	f.Last = idptest.SubmitForm(f.Env.T, f.Browser, p, nil)
	return f.Last
}

var samlResponseRE = regexp.MustCompile(`name="SAMLResponse" value="([^"]+)"`)

// samlSignIn runs a sign-in through the button and the IdP, up to the
// IdP's response form.
func samlSignIn(e *idptest.Env, r *idptest.RP) (*idptest.Flow, idptest.Page) {
	e.T.Helper()
	f := e.Start(r)
	f.Button()
	return f, samlResponse(f)
}

func TestSAMLSignIn(t *testing.T) {
	t.Parallel() // the federation tests run beside each other, after the others
	idptest.EachStore(t, func(t *testing.T, db *idptest.Database) {
		e := idptest.NewEnv(t, db, 1)
		fedID, ti := samlFederate(e, false)
		r := e.RP()

		f := e.Start(r)
		if !strings.Contains(f.Last.Body, "Sign in with Okta") {
			t.Errorf("the login page has no button of the federation: %s", f.Last.Body)
		}
		f.Password(" Ann@EXAMPLE.com", "") // the email alone goes to the IdP
		resp := samlResponse(f)
		postACS(f, resp, nil)
		first := f.MustExchange()
		want := idptest.Claims{Email: "ann@example.com", EmailVerified: true, AMR: []string{"fed"}, AuthTime: e.Clock.Now().Unix()}
		if first.Claims.Email != want.Email || !first.Claims.EmailVerified || !slices.Equal(first.Claims.AMR, want.AMR) {
			t.Errorf("claims %+v, want %+v", first.Claims, want)
		}

		// The same response again: its RelayState counted once.
		if p := postACS(f, resp, nil); p.Status != http.StatusBadRequest || !strings.Contains(p.Body, "expired") {
			t.Errorf("a replayed response: %d %s", p.Status, p.Body)
		}
		// The same response in another sign-in: not its request, and its
		// assertion counted once.
		g, _ := samlSignIn(e, r)
		if p := postACS(g, swapRelay(resp, g.Last), nil); p.Status != http.StatusBadGateway || g.AtCallback() {
			t.Errorf("a replayed assertion in another sign-in: %d %s", p.Status, p.Body)
		}

		g, resp = samlSignIn(e, r)
		postACS(g, resp, nil)
		if second := g.MustExchange(); second.ID.Subject != first.ID.Subject {
			t.Errorf("a second SAML sign-in made another account: %q then %q", first.ID.Subject, second.ID.Subject)
		}

		fs, err := e.P().Federations(context.Background())
		if err != nil || len(fs) != 1 || fs[0].ID != fedID || fs[0].Kind != idp.KindSAML || fs[0].Issuer != ti.idp.MetadataURL.String() ||
			!slices.Equal(fs[0].Domains, []string{"example.com"}) {
			t.Errorf("Federations: %+v, %v", fs, err)
		}
		if err := e.P().RemoveFederation(context.Background(), fedID); err != nil {
			t.Fatal(err)
		}
		if f := e.Start(r); strings.Contains(f.Last.Body, "Sign in with Okta") {
			t.Error("the login page shows a removed federation")
		}
	})
}

// swapRelay returns the response form p with the RelayState of the form
// other.
func swapRelay(p, other idptest.Page) idptest.Page {
	re := regexp.MustCompile(`name="RelayState" value="([^"]*)"`)
	p.Body = re.ReplaceAllString(p.Body, re.FindString(other.Body))
	return p
}

func TestSAMLRefusals(t *testing.T) {
	t.Parallel() // the federation tests run beside each other, after the others
	idptest.EachStore(t, func(t *testing.T, db *idptest.Database) {
		e := idptest.NewEnv(t, db, 1)
		_, ti := samlFederate(e, false)

		// The response counts only in the browser that started the
		// sign-in; another's attempt does not use it up.
		f, resp := samlSignIn(e, e.RP())
		other := e.Start(e.RP())
		if p := postACS(other, resp, nil); p.Status != http.StatusBadRequest || !strings.Contains(p.Body, "expired") {
			t.Errorf("another browser: %d %s, want the expired page", p.Status, p.Body)
		}
		postACS(f, resp, nil)
		f.MustExchange()

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
			{name: "ExpiredRelayState", before: func() { e.Clock.Add(11 * time.Minute) }, status: http.StatusBadRequest},
		} {
			email := c.email
			if email == "" {
				email = "ann@example.com"
			}
			ti.set(email, c.tweak)
			f, resp := samlSignIn(e, e.RP())
			if c.before != nil {
				c.before()
			}
			if p := postACS(f, resp, c.edit); p.Status != c.status || f.AtCallback() {
				t.Errorf("%s: %d at %s: %s, want %d", c.name, p.Status, p.URL, p.Body, c.status)
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
			e := idptest.NewEnv(t, idptest.SQLiteDB(t), 1)
			_, ti := samlFederate(e, c.trust)
			ti.set("ann@example.com", c.tweak)
			if err := e.P().RequireMFA(context.Background(), c.required); err != nil {
				t.Fatal(err)
			}
			f, resp := samlSignIn(e, e.RP())
			p := postACS(f, resp, nil)
			if c.want == nil {
				if f.AtCallback() || p.Status != http.StatusForbidden {
					t.Errorf("got %d at %s: %s, want 403", p.Status, p.URL, p.Body)
				}
				return
			}
			if s := f.MustExchange(); !slices.Equal(s.Claims.AMR, c.want) {
				t.Errorf("amr %v, want %v", s.Claims.AMR, c.want)
			}
		})
	}
}

func TestSAMLAdmin(t *testing.T) {
	t.Parallel()
	e := idptest.NewEnv(t, idptest.SQLiteDB(t), 1)
	ti := startSAMLIdP(t, samlfed.MetadataURL(e.Issuer))
	for _, c := range []struct {
		name string
		f    idp.Federation
	}{
		{"NoMetadata", idp.Federation{Kind: idp.KindSAML, Name: "Okta", SAMLMetadata: "<x/>", Domains: []string{"example.com"}}},
		{"NoName", idp.Federation{Kind: idp.KindSAML, SAMLMetadata: ti.metadata(t), Domains: []string{"example.com"}}},
		{"NoDomain", idp.Federation{Kind: idp.KindSAML, Name: "Okta", SAMLMetadata: ti.metadata(t)}},
		{"BadMetadataURL", idp.Federation{Kind: idp.KindSAML, Name: "Okta", SAMLMetadataURL: "ftp://x", Domains: []string{"example.com"}}},
	} {
		if _, err := e.P().AddFederation(context.Background(), c.f); feedback.ErrorCode(err) != feedback.EValidation {
			t.Errorf("%s: %v, want EValidation", c.name, err)
		}
	}
	byURL := idp.Federation{Kind: idp.KindSAML, Name: "Okta", SAMLMetadataURL: ti.srv.URL + "/metadata", Domains: []string{"example.com"}}
	if _, err := e.P().AddFederation(context.Background(), byURL); err != nil {
		t.Errorf("by metadata URL: %v", err)
	}
	byURL.Domains = []string{"example.org", "example.com"}
	if _, err := e.P().AddFederation(context.Background(), byURL); feedback.ErrorCode(err) != feedback.EConflict {
		t.Errorf("a domain taken: %v, want EConflict", err)
	}
	resp, err := http.Get(samlfed.MetadataURL(e.Issuer))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var ed saml.EntityDescriptor
	if err := xml.NewDecoder(resp.Body).Decode(&ed); err != nil {
		t.Fatal(err)
	}
	if ed.EntityID != e.Issuer+"/saml/metadata" || len(ed.SPSSODescriptors) != 1 ||
		ed.SPSSODescriptors[0].AssertionConsumerServices[0].Location != e.Issuer+"/saml/acs" {
		t.Errorf("SP metadata: %+v", ed)
	}
}
