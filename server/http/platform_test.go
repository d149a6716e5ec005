package http_test

import (
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/base64"
	"io"
	"math/big"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"slices"
	"strings"
	"testing"
	"time"

	feedbackhttp "github.com/feedbackhq/feedback/server/http"
	"github.com/feedbackhq/feedback/server/idp"
	"github.com/feedbackhq/feedback/server/idp/oidcfed"
	"github.com/feedbackhq/feedback/server/idp/samlfed"
	"github.com/feedbackhq/feedback/shared/feedback"
)

// withProvider serves the embedded provider at BaseURL/idp, whose
// federations the API manages; allowLoopback lets federations (and
// webhooks) reach 127.0.0.0/8, where the provider itself is.
func withProvider(tb testing.TB, allowLoopback bool) func(*feedbackhttp.Config) {
	return func(cfg *feedbackhttp.Config) {
		p, err := idp.New(context.Background(), idp.Config{Issuer: cfg.BaseURL + "/idp", Store: cfg.Store, Keys: cfg.Keyring,
			Insecure: true, Logger: cfg.Logger, Now: cfg.Now, Federators: []func(idp.Host) idp.Federator{oidcfed.New, samlfed.New}})
		if err != nil {
			tb.Fatal(err)
		}
		cfg.IdP, cfg.Federations = p.Handler(), p
		if allowLoopback {
			cfg.WebhookAllow = []netip.Prefix{netip.MustParsePrefix("127.0.0.0/8")}
		}
	}
}

// eachStoreWith is eachStore with mods made for each server.
func eachStoreWith(t *testing.T, mods func(testing.TB) []func(*feedbackhttp.Config), fn func(t *testing.T, ts *TestServer)) {
	t.Helper()
	for _, kind := range storeKinds {
		t.Run(kind, func(t *testing.T) {
			t.Parallel()
			fn(t, MustOpenServer(t, kind, mods(t)...))
		})
	}
}

func TestWorkspaces(t *testing.T) {
	eachStore(t, func(t *testing.T, ts *TestServer) {
		acme := ts.NewTenant(t, "Acme")
		ada := ts.signIn(t, "ada") // the platform owner
		bob := ts.signIn(t, "bob")
		ts.addMember(t, acme.ID, bob.User.ID, feedback.RoleAdmin)

		var ws feedback.Workspace
		ada.do(t, req{method: "POST", path: "/api/v1/workspaces", body: map[string]any{"name": "  Zürich Stations 2 "}}).
			expect(t, 201, "").decode(t, &ws)
		if ws.Name != "Zürich Stations 2" || ws.Slug != "z-rich-stations-2" || ws.ID == "" {
			t.Errorf("POST /workspaces = %+v; want the name trimmed and the slug z-rich-stations-2", ws)
		}
		t.Run("Listed", func(t *testing.T) {
			if got := workspaceSlugs(t, ada); !slices.Equal(got, []string{"acme", "z-rich-stations-2"}) {
				t.Errorf("GET /workspaces slugs = %v", got)
			}
			var me feedback.Me
			ada.do(t, req{method: "GET", path: "/api/v1/me"}).expect(t, 200, "").decode(t, &me)
			if !slices.ContainsFunc(me.Workspaces, func(m feedback.Membership) bool {
				return m.Slug == ws.Slug && m.Role == feedback.RoleOwner
			}) {
				t.Errorf("GET /me workspaces = %+v; want the new one, as its owner", me.Workspaces)
			}
			ada.do(t, req{method: "GET", path: "/api/v1/locations", header: inWorkspace(ws.Slug)}).expect(t, 200, "")
		})
		t.Run("SlugTaken", func(t *testing.T) {
			p := ada.do(t, req{method: "POST", path: "/api/v1/workspaces", body: map[string]any{"name": "Other", "slug": "acme"}}).
				expect(t, 409, feedback.EConflict).problem(t)
			if len(p.InvalidParams) != 1 || p.InvalidParams[0].Name != "slug" {
				t.Errorf("invalid_params = %+v; want slug", p.InvalidParams)
			}
		})
		t.Run("Invalid", func(t *testing.T) {
			for _, body := range []any{
				map[string]any{"name": "X", "slug": "Has Spaces"},
				map[string]any{"name": "X", "slug": "trailing-"},
				map[string]any{"name": ""},
				map[string]any{"name": strings.Repeat("n", 101)},
				map[string]any{"name": "X", "slug": strings.Repeat("a", 41)},
			} {
				ada.do(t, req{method: "POST", path: "/api/v1/workspaces", body: body}).expect(t, 422, feedback.EValidation)
			}
			ada.do(t, req{method: "POST", path: "/api/v1/workspaces", body: "{\"name\":\"bad \xff\"}", contentType: "application/json"}).expect(t, 400, feedback.EMalformedBody)
			ada.do(t, req{method: "POST", path: "/api/v1/workspaces", body: map[string]any{"name": "X", "owner": "me"}}).expect(t, 422, feedback.EValidation)
			if got := workspaceSlugs(t, ada); len(got) != 2 {
				t.Errorf("after refused bodies the workspaces are %v; want nothing stored", got)
			}
		})
		t.Run("OwnersOnly", func(t *testing.T) {
			bob.do(t, req{method: "GET", path: "/api/v1/workspaces"}).expect(t, 403, feedback.EForbidden)
			bob.do(t, req{method: "POST", path: "/api/v1/workspaces", body: map[string]any{"name": "Mine"}}).expect(t, 403, feedback.EForbidden)
			ts.do(t, req{method: "GET", path: "/api/v1/workspaces", token: acme.Token}).expect(t, 403, feedback.EForbidden)
			if got := workspaceSlugs(t, ada); len(got) != 2 {
				t.Errorf("workspaces = %v; want none made by others", got)
			}
		})
		t.Run("Audited", func(t *testing.T) {
			expectAudited(t, ada, feedback.AuditWorkspaceCreated, "workspace:"+ws.ID)
		})
	})
}

// workspaceSlugs returns the slugs that GET /workspaces lists.
func workspaceSlugs(t *testing.T, owner *browser) []string {
	t.Helper()
	var page feedback.Page[feedback.Workspace]
	owner.do(t, req{method: "GET", path: "/api/v1/workspaces"}).expect(t, 200, "").decode(t, &page)
	var slugs []string
	for _, w := range page.Data {
		slugs = append(slugs, w.Slug)
	}
	return slugs
}

// expectAudited fails unless the owner's audit log has action on target.
func expectAudited(t *testing.T, owner *browser, action, target string) {
	t.Helper()
	var page feedback.Page[feedback.AuditEntry]
	owner.do(t, req{method: "GET", path: "/api/v1/audit-log"}).expect(t, 200, "").decode(t, &page)
	for _, e := range page.Data {
		if e.Action == action && e.Target == target && e.Actor == owner.User.Email {
			return
		}
	}
	t.Errorf("the audit log has no %s of %s by %s: %+v", action, target, owner.User.Email, page.Data)
}

func TestFederations(t *testing.T) {
	eachStoreWith(t, func(tb testing.TB) []func(*feedbackhttp.Config) {
		return []func(*feedbackhttp.Config){withProvider(tb, true)}
	}, func(t *testing.T, ts *TestServer) {
		acme := ts.NewTenant(t, "Acme")
		ada := ts.signIn(t, "ada") // the platform owner
		bob := ts.signIn(t, "bob")
		ts.addMember(t, acme.ID, bob.User.ID, feedback.RoleAdmin)
		const secret = "the-upstream-client-secret"
		// The upstream is the embedded provider itself: a real OpenID
		// provider whose discovery document the API reads.
		in := map[string]any{"name": "Zitadel", "issuer": ts.URL + "/idp", "client_id": "feedback",
			"client_secret": secret, "domains": []string{"@Zitadel.CH"}, "trust_mfa": true}

		var f feedback.Federation
		ada.do(t, req{method: "POST", path: "/api/v1/federations", body: in}).expect(t, 201, "").decode(t, &f)
		if f.Kind != feedback.FederationOIDC || f.Issuer != ts.URL+"/idp" || !slices.Equal(f.Domains, []string{"zitadel.ch"}) ||
			!f.TrustMFA || f.RedirectURI != ts.URL+"/idp/federation/callback" {
			t.Errorf("POST /federations = %+v", f)
		}
		t.Run("ListedWithoutSecret", func(t *testing.T) {
			res := ada.do(t, req{method: "GET", path: "/api/v1/federations"}).expect(t, 200, "")
			var page feedback.Page[feedback.Federation]
			res.decode(t, &page)
			if len(page.Data) != 1 || page.Data[0].ID != f.ID || page.Data[0].ClientID != "feedback" {
				t.Errorf("GET /federations = %+v; want the one added", page.Data)
			}
			if strings.Contains(string(res.Body), secret) {
				t.Errorf("GET /federations answers the client secret: %s", res.Body)
			}
			rows, err := ts.Store.IdPFederations(context.Background())
			if err != nil || len(rows) != 1 || strings.Contains(string(rows[0].ClientSecret), secret) {
				t.Errorf("stored federations %+v, %v; want one with its secret sealed", rows, err)
			}
		})
		t.Run("DomainTaken", func(t *testing.T) {
			ada.do(t, req{method: "POST", path: "/api/v1/federations", body: in}).expect(t, 409, feedback.EConflict)
		})
		t.Run("Refused", func(t *testing.T) {
			for field, change := range map[string]map[string]any{
				"issuer":        {"issuer": ts.URL + "/not-a-provider", "domains": []string{"other.example"}},
				"client_secret": {"client_secret": "", "domains": []string{"other.example"}},
				"domains":       {"domains": []string{"not a domain"}},
				"name":          {"name": "", "domains": []string{"other.example"}},
				"kind":          {"kind": "ldap", "domains": []string{"other.example"}},
				"saml_metadata": {"kind": "saml", "issuer": "", "client_id": "", "client_secret": "", "domains": []string{"other.example"}},
			} {
				body := maps(in, change)
				p := ada.do(t, req{method: "POST", path: "/api/v1/federations", body: body}).expect(t, 422, feedback.EValidation).problem(t)
				if len(p.InvalidParams) == 0 || p.InvalidParams[0].Name != field {
					t.Errorf("%v: invalid_params = %+v; want %s", change, p.InvalidParams, field)
				}
			}
			ada.do(t, req{method: "POST", path: "/api/v1/federations", contentType: "application/json",
				body: "{\"name\":\"\xff\",\"domains\":[\"x.example\"]}"}).expect(t, 400, feedback.EMalformedBody)
			if n := countFederations(t, ada); n != 1 {
				t.Errorf("%d federations after refused bodies; want 1", n)
			}
		})
		t.Run("OwnersOnly", func(t *testing.T) {
			bob.do(t, req{method: "GET", path: "/api/v1/federations"}).expect(t, 403, feedback.EForbidden)
			bob.do(t, req{method: "POST", path: "/api/v1/federations", body: in}).expect(t, 403, feedback.EForbidden)
			bob.do(t, req{method: "DELETE", path: "/api/v1/federations/" + f.ID}).expect(t, 403, feedback.EForbidden)
			ts.do(t, req{method: "GET", path: "/api/v1/federations", token: acme.Token}).expect(t, 403, feedback.EForbidden)
		})
		t.Run("Remove", func(t *testing.T) {
			ada.do(t, req{method: "DELETE", path: "/api/v1/federations/" + f.ID}).expect(t, 204, "")
			if n := countFederations(t, ada); n != 0 {
				t.Errorf("%d federations after the removal; want 0", n)
			}
			ada.do(t, req{method: "DELETE", path: "/api/v1/federations/" + f.ID}).expect(t, 404, feedback.ENotFound)
			expectAudited(t, ada, feedback.AuditFederationAdded, "federation:"+f.ID)
			expectAudited(t, ada, feedback.AuditFederationRemoved, "federation:"+f.ID)
		})
	})
}

// TestSAMLFederation adds a SAML IdP by its metadata URL, which the API
// fetches once, and refuses metadata that is not an IdP's.
func TestSAMLFederation(t *testing.T) {
	eachStoreWith(t, func(tb testing.TB) []func(*feedbackhttp.Config) {
		return []func(*feedbackhttp.Config){withProvider(tb, true)}
	}, func(t *testing.T, ts *TestServer) {
		ada := ts.signIn(t, "ada")
		md := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
			w.Header().Set("Content-Type", "application/samlmetadata+xml")
			io.WriteString(w, idpMetadata(t, "https://idp.okta.example/entity"))
		}))
		t.Cleanup(md.Close)
		in := map[string]any{"kind": "saml", "name": "Okta", "saml_metadata_url": md.URL, "domains": []string{"okta.example"}}
		var f feedback.Federation
		ada.do(t, req{method: "POST", path: "/api/v1/federations", body: in}).expect(t, 201, "").decode(t, &f)
		if f.Kind != feedback.FederationSAML || f.Issuer != "https://idp.okta.example/entity" || f.ClientID != "" ||
			f.SPMetadataURL != ts.URL+"/idp/saml/metadata" || f.ACSURL != ts.URL+"/idp/saml/acs" || f.RedirectURI != "" {
			t.Errorf("POST /federations (saml) = %+v", f)
		}

		// Our own SP metadata is no IdP's.
		in = map[string]any{"kind": "saml", "name": "Self", "saml_metadata_url": ts.URL + "/idp/saml/metadata", "domains": []string{"self.example"}}
		p := ada.do(t, req{method: "POST", path: "/api/v1/federations", body: in}).expect(t, 422, feedback.EValidation).problem(t)
		if len(p.InvalidParams) != 1 || p.InvalidParams[0].Name != "saml_metadata" {
			t.Errorf("invalid_params = %+v; want saml_metadata", p.InvalidParams)
		}
		if n := countFederations(t, ada); n != 1 {
			t.Errorf("%d federations; want the IdP's only", n)
		}
	})
}

// idpMetadata is a SAML IdP's metadata: entityID, a redirect SSO
// service and a new self-signed signing certificate.
func idpMetadata(t *testing.T, entityID string) string {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: "idp"},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(time.Hour)}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		t.Fatal(err)
	}
	return `<md:EntityDescriptor xmlns:md="urn:oasis:names:tc:SAML:2.0:metadata" xmlns:ds="http://www.w3.org/2000/09/xmldsig#" entityID="` +
		entityID + `"><md:IDPSSODescriptor protocolSupportEnumeration="urn:oasis:names:tc:SAML:2.0:protocol">` +
		`<md:KeyDescriptor use="signing"><ds:KeyInfo><ds:X509Data><ds:X509Certificate>` + base64.StdEncoding.EncodeToString(der) +
		`</ds:X509Certificate></ds:X509Data></ds:KeyInfo></md:KeyDescriptor>` +
		`<md:SingleSignOnService Binding="urn:oasis:names:tc:SAML:2.0:bindings:HTTP-Redirect" Location="https://idp.okta.example/sso"/>` +
		`</md:IDPSSODescriptor></md:EntityDescriptor>`
}

// TestFederationPrivateIssuer: an issuer on a private or loopback
// address is refused, as a webhook's URL is, unless the server allows
// its network.
func TestFederationPrivateIssuer(t *testing.T) {
	eachStoreWith(t, func(tb testing.TB) []func(*feedbackhttp.Config) {
		return []func(*feedbackhttp.Config){withProvider(tb, false)}
	}, func(t *testing.T, ts *TestServer) {
		ada := ts.signIn(t, "ada")
		for _, issuer := range []string{ts.URL + "/idp", "https://internal.example.com", "https://169.254.169.254/latest"} {
			in := map[string]any{"name": "Inside", "issuer": issuer, "client_id": "c", "client_secret": "s", "domains": []string{"inside.example"}}
			p := ada.do(t, req{method: "POST", path: "/api/v1/federations", body: in}).expect(t, 422, feedback.EValidation).problem(t)
			if len(p.InvalidParams) != 1 || p.InvalidParams[0].Name != "issuer" {
				t.Errorf("%s: invalid_params = %+v; want issuer", issuer, p.InvalidParams)
			}
		}
		if n := countFederations(t, ada); n != 0 {
			t.Errorf("%d federations; want none stored", n)
		}
	})
}

// TestFederationsExternalProvider: without the embedded provider there
// are no federations to manage.
func TestFederationsExternalProvider(t *testing.T) {
	eachStore(t, func(t *testing.T, ts *TestServer) {
		ada := ts.signIn(t, "ada")
		ada.do(t, req{method: "GET", path: "/api/v1/federations"}).expect(t, 404, feedback.ENotFound)
	})
}

// countFederations returns how many federations GET /federations lists.
func countFederations(t *testing.T, owner *browser) int {
	t.Helper()
	var page feedback.Page[feedback.Federation]
	owner.do(t, req{method: "GET", path: "/api/v1/federations"}).expect(t, 200, "").decode(t, &page)
	return len(page.Data)
}

// maps returns a copy of base with change applied.
func maps(base, change map[string]any) map[string]any {
	out := make(map[string]any, len(base))
	for k, v := range base {
		out[k] = v
	}
	for k, v := range change {
		out[k] = v
	}
	return out
}
