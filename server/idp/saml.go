package idp

import (
	"context"
	"crypto/x509"
	"encoding/base64"
	"encoding/xml"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"

	saml2 "github.com/russellhaering/gosaml2"
	"github.com/russellhaering/gosaml2/types"
	dsig "github.com/russellhaering/goxmldsig"

	"github.com/feedbackhq/feedback/shared/feedback"
)

// The paths of this provider as a SAML service provider, under the
// issuer's path.
const (
	samlMetadataPath = "/saml/metadata"
	samlACSPath      = "/saml/acs"
)

// SAMLFederation is an organisation's SAML 2.0 identity provider, which
// signs in the addresses of its email domains, as a [Federation] does:
// [Provider.Federations] lists it (Issuer is the IdP's entity ID) and
// [Provider.RemoveFederation] removes it.
type SAMLFederation struct {
	// Name is shown on the sign-in button: "Sign in with Name".
	Name string
	// MetadataXML is the IdP's metadata: its entity ID, its single
	// sign-on service (HTTP-Redirect binding) and its signing
	// certificates.
	MetadataXML string
	// MetadataURL, when MetadataXML is empty, is where
	// [Provider.AddSAMLFederation] fetches the metadata, once: a new
	// certificate needs the federation removed and added again.
	MetadataURL string
	// Domains are the email domains the federation signs in.
	Domains []string
	// TrustUpstreamMFA counts a second factor that the IdP names in the
	// assertion's AuthnContextClassRef (e.g. MobileTwoFactorContract).
	TrustUpstreamMFA bool
}

// samlIdP is what a SAML federation's metadata says of its IdP.
type samlIdP struct {
	entityID, ssoURL string
	certs            []*x509.Certificate
}

const bindingRedirect = "urn:oasis:names:tc:SAML:2.0:bindings:HTTP-Redirect"

// parseSAMLMetadata reads an IdP's entity ID, redirect SSO URL and signing
// certificates from its metadata, or returns an EValidation error.
func parseSAMLMetadata(metadata string) (*samlIdP, error) {
	var ed types.EntityDescriptor
	if err := xml.Unmarshal([]byte(metadata), &ed); err != nil || ed.IDPSSODescriptor == nil || ed.EntityID == "" {
		return nil, feedback.Errorf(feedback.EValidation, "The metadata is not a SAML IdP's EntityDescriptor.")
	}
	idp := &samlIdP{entityID: ed.EntityID}
	for _, s := range ed.IDPSSODescriptor.SingleSignOnServices {
		if s.Binding == bindingRedirect && idp.ssoURL == "" {
			idp.ssoURL = s.Location
		}
	}
	for _, kd := range ed.IDPSSODescriptor.KeyDescriptors {
		if kd.Use != "" && kd.Use != "signing" {
			continue
		}
		for _, c := range kd.KeyInfo.X509Data.X509Certificates {
			der, err := base64.StdEncoding.DecodeString(strings.Join(strings.Fields(c.Data), ""))
			if err != nil {
				return nil, feedback.Errorf(feedback.EValidation, "A certificate of the metadata is not base64.")
			}
			cert, err := x509.ParseCertificate(der)
			if err != nil {
				return nil, feedback.Errorf(feedback.EValidation, "A certificate of the metadata does not parse.")
			}
			idp.certs = append(idp.certs, cert)
		}
	}
	switch {
	case !strings.HasPrefix(idp.ssoURL, "https://") && !strings.HasPrefix(idp.ssoURL, "http://"):
		return nil, feedback.Errorf(feedback.EValidation, "The metadata has no HTTP-Redirect SingleSignOnService.")
	case len(idp.certs) == 0:
		return nil, feedback.Errorf(feedback.EValidation, "The metadata has no signing certificate.")
	}
	return idp, nil
}

// AddSAMLFederation stores f with a new id, which it returns, and its
// domains. Returns EValidation if a field is missing or the metadata is
// malformed, EConflict if a domain belongs to another federation.
func (p *Provider) AddSAMLFederation(ctx context.Context, f SAMLFederation) (id string, err error) {
	defer wrap(&err, "AddSAMLFederation")
	if f.MetadataXML == "" {
		if f.MetadataXML, err = p.fetchSAMLMetadata(ctx, f.MetadataURL); err != nil {
			return "", err
		}
	}
	idp, err := parseSAMLMetadata(f.MetadataXML)
	if err != nil {
		return "", err
	}
	// checkFederation validates the common fields; the OIDC-only ones are
	// filled with placeholders that it accepts.
	c := Federation{Name: f.Name, Issuer: "https://saml.invalid", ClientID: "saml", ClientSecret: "saml",
		Domains: f.Domains}
	if err := p.checkFederation(&c); err != nil {
		return "", err
	}
	now := p.now()
	id = feedback.NewIDAt(now)
	return id, p.insertFederation(ctx, federationRow{id: id, name: c.Name, issuer: idp.entityID,
		trust: f.TrustUpstreamMFA, kind: "saml", samlMetadata: f.MetadataXML, domains: c.Domains}, now)
}

// fetchSAMLMetadata returns the metadata at rawURL, an https URL (or http
// when the provider is Insecure), of at most 1 MiB.
func (p *Provider) fetchSAMLMetadata(ctx context.Context, rawURL string) (string, error) {
	u, err := url.Parse(rawURL)
	if err != nil || u.Host == "" || (u.Scheme != "https" && !(p.cfg.Insecure && u.Scheme == "http")) {
		return "", feedback.Errorf(feedback.EValidation, "A SAML federation needs its metadata XML or an https metadata URL.")
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u.String(), nil)
	if err != nil {
		return "", err
	}
	resp, err := p.cfg.HTTPClient.Do(req)
	if err != nil {
		return "", feedback.Errorf(feedback.EValidation, "The metadata URL did not answer: %v", err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(io.LimitReader(resp.Body, 1<<20))
	if err != nil || resp.StatusCode != http.StatusOK {
		return "", feedback.Errorf(feedback.EValidation, "The metadata URL answered %s.", resp.Status)
	}
	return string(b), nil
}

// samlIdPOf returns the IdP of federation id, or errNotFound if it is not
// a SAML federation.
func (p *Provider) samlIdPOf(ctx context.Context, id string) (*samlIdP, error) {
	f, err := p.cfg.Store.IdPFederation(ctx, id)
	if err = orNotFound(err); err == nil && f.Kind != "saml" {
		err = errNotFound
	}
	if err != nil {
		return nil, err
	}
	return parseSAMLMetadata(f.SAMLMetadata)
}

// SAMLMetadataURL returns this provider's SP entity ID, where it serves
// its SP metadata: {issuer}/saml/metadata.
func (p *Provider) SAMLMetadataURL() string {
	return strings.TrimSuffix(p.cfg.Issuer, "/") + samlMetadataPath
}

// SAMLACSURL returns this provider's assertion consumer service (HTTP-POST
// binding): {issuer}/saml/acs.
func (p *Provider) SAMLACSURL() string {
	return strings.TrimSuffix(p.cfg.Issuer, "/") + samlACSPath
}

// serviceProvider returns the gosaml2 service provider that talks to idp.
func (p *Provider) serviceProvider(idp *samlIdP) *saml2.SAMLServiceProvider {
	return &saml2.SAMLServiceProvider{
		IdentityProviderSSOURL:      idp.ssoURL,
		IdentityProviderSSOBinding:  bindingRedirect,
		IdentityProviderIssuer:      idp.entityID,
		ServiceProviderIssuer:       p.SAMLMetadataURL(),
		AssertionConsumerServiceURL: p.SAMLACSURL(),
		AudienceURI:                 p.SAMLMetadataURL(),
		IDPCertificateStore:         &dsig.MemoryX509CertificateStore{Roots: idp.certs},
		NameIdFormat:                nameIDEmail,
		AllowMissingAttributes:      true,
		Clock:                       dsig.NewFakeClockAt(p.now()),
	}
}

const nameIDEmail = "urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress"

// handleSAMLMetadata handles "GET /saml/metadata": the SP metadata to give
// the organisations' IdPs.
func (p *Provider) handleSAMLMetadata(w http.ResponseWriter, _ *http.Request) {
	w.Header().Set("Content-Type", "application/samlmetadata+xml")
	var b strings.Builder
	xml.EscapeText(&b, []byte(p.SAMLMetadataURL()))
	entityID := b.String()
	b.Reset()
	xml.EscapeText(&b, []byte(p.SAMLACSURL()))
	fmt.Fprintf(w, `<?xml version="1.0" encoding="UTF-8"?>
<md:EntityDescriptor xmlns:md="urn:oasis:names:tc:SAML:2.0:metadata" entityID="%s">
  <md:SPSSODescriptor AuthnRequestsSigned="false" WantAssertionsSigned="true" protocolSupportEnumeration="urn:oasis:names:tc:SAML:2.0:protocol">
    <md:NameIDFormat>%s</md:NameIDFormat>
    <md:AssertionConsumerService Binding="urn:oasis:names:tc:SAML:2.0:bindings:HTTP-POST" Location="%s" index="0" isDefault="true"/>
  </md:SPSSODescriptor>
</md:EntityDescriptor>
`, entityID, nameIDEmail, b.String())
}
