package main

import (
	"crypto/rand"
	"crypto/rsa"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/xml"
	"math/big"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/crewjam/saml"
)

// idpMetadata returns the metadata XML of a SAML IdP with a new key.
func idpMetadata(t *testing.T) string {
	key, err := rsa.GenerateKey(rand.Reader, 2048)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: "idp.example.com"},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(24 * time.Hour)}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		t.Fatal(err)
	}
	cert, _ := x509.ParseCertificate(der)
	meta, _ := url.Parse("https://idp.example.com/metadata")
	sso, _ := url.Parse("https://idp.example.com/sso")
	b, err := xml.Marshal((&saml.IdentityProvider{Key: key, Certificate: cert, MetadataURL: *meta, SSOURL: *sso}).Metadata())
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestFederationCommandsSAML adds a SAML IdP from its metadata file and
// prints what the IdP needs of us.
func TestFederationCommandsSAML(t *testing.T) {
	m := newTestMain(t, nil)
	file := filepath.Join(t.TempDir(), "idp.xml")
	if err := os.WriteFile(file, []byte(idpMetadata(t)), 0o600); err != nil {
		t.Fatal(err)
	}
	out := m.run(t, "federation", "add", "--name", "Example SAML", "--saml-metadata", file, "--domain", "example.com",
		"--base-url", "https://fb.example")
	id := strings.Fields(out)[0]
	if !strings.Contains(out, "https://fb.example/idp/saml/metadata") || !strings.Contains(out, "https://fb.example/idp/saml/acs") {
		t.Errorf("federation add --saml-metadata printed:\n%s", out)
	}
	list := m.run(t, "federation", "list")
	if !strings.Contains(list, id) || !strings.Contains(list, "saml") || !strings.Contains(list, "https://idp.example.com/metadata") {
		t.Errorf("federation list printed:\n%s", list)
	}
}
