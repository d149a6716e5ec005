package samlfed

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

	"github.com/feedbackhq/feedback/server/idp"
	"github.com/feedbackhq/feedback/shared/feedback"
)

// The paths of the provider as a SAML service provider, under the
// issuer's path.
const (
	MetadataPath = "/saml/metadata"
	ACSPath      = "/saml/acs"
)

// MetadataURL returns the SP entity ID of the embedded provider of
// issuer, where it serves its SP metadata: {issuer}/saml/metadata.
func MetadataURL(issuer string) string { return idp.Env{Issuer: issuer}.URL(MetadataPath) }

// ACSURL returns the assertion consumer service (HTTP-POST binding) of
// the embedded provider of issuer: {issuer}/saml/acs.
func ACSURL(issuer string) string { return idp.Env{Issuer: issuer}.URL(ACSPath) }

// federator signs people in through SAML IdPs: idp.Federator and
// idp.Preparer.
type federator struct {
	h   idp.Host
	env idp.Env
}

// New returns the federator of SAML federations (idp.KindSAML) of the
// provider h: give it to idp.Config.Federators.
func New(h idp.Host) idp.Federator { return &federator{h: h, env: h.Env()} }

// Kind returns idp.KindSAML.
func (*federator) Kind() string { return idp.KindSAML }

// Routes returns the SP metadata, and the ACS, to which IdPs post from
// their own sites: a page without cross-origin protection, as the
// RelayState and its cookie bind the response.
func (fr *federator) Routes() []idp.Route {
	return []idp.Route{
		{Pattern: "GET " + MetadataPath, Handler: http.HandlerFunc(fr.handleMetadata)},
		{Pattern: "POST " + ACSPath, Handler: http.HandlerFunc(fr.handleACS), Page: true, CrossSite: true},
	}
}

// metadata is what a SAML federation's metadata says of its IdP.
type metadata struct {
	entityID, ssoURL string
	certs            []*x509.Certificate
}

const bindingRedirect = "urn:oasis:names:tc:SAML:2.0:bindings:HTTP-Redirect"

// parseMetadata reads an IdP's entity ID, redirect SSO URL and signing
// certificates from its metadata, or returns an EValidation error.
func parseMetadata(xmlText string) (*metadata, error) {
	var ed types.EntityDescriptor
	if err := xml.Unmarshal([]byte(xmlText), &ed); err != nil || ed.IDPSSODescriptor == nil || ed.EntityID == "" {
		return nil, feedback.Errorf(feedback.EValidation, "The metadata is not a SAML IdP's EntityDescriptor.")
	}
	md := &metadata{entityID: ed.EntityID}
	for _, s := range ed.IDPSSODescriptor.SingleSignOnServices {
		if s.Binding == bindingRedirect && md.ssoURL == "" {
			md.ssoURL = s.Location
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
			md.certs = append(md.certs, cert)
		}
	}
	switch {
	case !strings.HasPrefix(md.ssoURL, "https://") && !strings.HasPrefix(md.ssoURL, "http://"):
		return nil, feedback.Errorf(feedback.EValidation, "The metadata has no HTTP-Redirect SingleSignOnService.")
	case len(md.certs) == 0:
		return nil, feedback.Errorf(feedback.EValidation, "The metadata has no signing certificate.")
	}
	return md, nil
}

// Prepare reads the metadata of the SAML federation f (fetching it from
// f.SAMLMetadataURL when f.SAMLMetadata is empty) and makes its entity
// ID f's issuer. Returns EValidation if the metadata cannot be had or is
// malformed.
func (fr *federator) Prepare(ctx context.Context, f *idp.Federation) (err error) {
	if f.SAMLMetadata == "" {
		if f.SAMLMetadata, err = fr.fetchMetadata(ctx, f.SAMLMetadataURL); err != nil {
			return err
		}
	}
	md, err := parseMetadata(f.SAMLMetadata)
	if err != nil {
		return err
	}
	f.Issuer, f.ClientID, f.ClientSecret = md.entityID, "", ""
	return nil
}

// fetchMetadata returns the metadata at rawURL through the provider's
// client (see FetchMetadata).
func (fr *federator) fetchMetadata(ctx context.Context, rawURL string) (string, error) {
	return FetchMetadata(ctx, fr.env.HTTPClient, rawURL, fr.env.Insecure)
}

// FetchMetadata returns the SAML metadata at rawURL, an https URL (or
// http when insecure), of at most 1 MiB, fetched with client: the API
// gives a client that refuses private addresses. Returns EValidation if
// the URL is not one or does not answer 200.
func FetchMetadata(ctx context.Context, client *http.Client, rawURL string, insecure bool) (string, error) {
	u, err := url.Parse(rawURL)
	if err != nil || u.Host == "" || (u.Scheme != "https" && !(insecure && u.Scheme == "http")) {
		return "", feedback.Errorf(feedback.EValidation, "A SAML federation needs its metadata XML or an https metadata URL.")
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u.String(), nil)
	if err != nil {
		return "", err
	}
	resp, err := client.Do(req)
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

// serviceProvider returns the gosaml2 service provider that talks to md's
// IdP.
func (fr *federator) serviceProvider(md *metadata) *saml2.SAMLServiceProvider {
	return &saml2.SAMLServiceProvider{
		IdentityProviderSSOURL:      md.ssoURL,
		IdentityProviderSSOBinding:  bindingRedirect,
		IdentityProviderIssuer:      md.entityID,
		ServiceProviderIssuer:       fr.env.URL(MetadataPath),
		AssertionConsumerServiceURL: fr.env.URL(ACSPath),
		AudienceURI:                 fr.env.URL(MetadataPath),
		IDPCertificateStore:         &dsig.MemoryX509CertificateStore{Roots: md.certs},
		NameIdFormat:                nameIDEmail,
		AllowMissingAttributes:      true,
		Clock:                       dsig.NewFakeClockAt(fr.env.Now()),
	}
}

const nameIDEmail = "urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress"

// handleMetadata handles "GET /saml/metadata": the SP metadata to give
// the organisations' IdPs.
func (fr *federator) handleMetadata(w http.ResponseWriter, _ *http.Request) {
	w.Header().Set("Content-Type", "application/samlmetadata+xml")
	var b strings.Builder
	xml.EscapeText(&b, []byte(fr.env.URL(MetadataPath)))
	entityID := b.String()
	b.Reset()
	xml.EscapeText(&b, []byte(fr.env.URL(ACSPath)))
	fmt.Fprintf(w, `<?xml version="1.0" encoding="UTF-8"?>
<md:EntityDescriptor xmlns:md="urn:oasis:names:tc:SAML:2.0:metadata" entityID="%s">
  <md:SPSSODescriptor AuthnRequestsSigned="false" WantAssertionsSigned="true" protocolSupportEnumeration="urn:oasis:names:tc:SAML:2.0:protocol">
    <md:NameIDFormat>%s</md:NameIDFormat>
    <md:AssertionConsumerService Binding="urn:oasis:names:tc:SAML:2.0:bindings:HTTP-POST" Location="%s" index="0" isDefault="true"/>
  </md:SPSSODescriptor>
</md:EntityDescriptor>
`, entityID, nameIDEmail, b.String())
}
