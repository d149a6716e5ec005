package feedback_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/feedbackhq/feedback/shared/feedback"
)

func TestSlugify(t *testing.T) {
	for name, want := range map[string]string{
		"Acme Stations":               "acme-stations",
		"  Zürich -- Hauptbahnhof!! ": "z-rich-hauptbahnhof",
		"東京":                          "workspace",
		"---":                         "workspace",
		strings.Repeat("ab ", 30):     strings.Repeat("ab-", 13) + "a",
	} {
		got := feedback.Slugify(name)
		if got != want || !feedback.ValidSlug(got) {
			t.Errorf("Slugify(%q) = %q (valid %t); want %q", name, got, feedback.ValidSlug(got), want)
		}
	}
}

func TestWorkspaceInput(t *testing.T) {
	in := feedback.WorkspaceInput{Name: "  Acme  "}
	if err := in.Validate(); err != nil || in.Name != "Acme" || in.Slug != "acme" {
		t.Errorf("Validate = %v, %+v; want the name trimmed and the slug made", err, in)
	}
	for _, bad := range []feedback.WorkspaceInput{
		{Name: ""}, {Name: "A\x00B"}, {Name: "A", Slug: "-a"}, {Name: "A", Slug: "a--b"}, {Name: "A", Slug: "Ab"},
		{Name: "A", Slug: "a/b"}, {Name: "A", Slug: strings.Repeat("a", feedback.MaxSlug+1)},
	} {
		if err := bad.Validate(); feedback.ErrorCode(err) != feedback.EValidation {
			t.Errorf("Validate(%+v) = %v; want a validation error", bad, err)
		}
	}
}

func TestFederationInput(t *testing.T) {
	oidc := feedback.FederationInput{Name: " Acme ", Issuer: "https://login.acme.example", ClientID: "c", ClientSecret: "s",
		Domains: []string{" @Acme.Example "}}
	if err := oidc.Validate(); err != nil || oidc.Kind != feedback.FederationOIDC || oidc.Name != "Acme" ||
		!slices.Equal(oidc.Domains, []string{"acme.example"}) {
		t.Errorf("Validate = %v, %+v; want an oidc federation of acme.example", err, oidc)
	}
	saml := feedback.FederationInput{Kind: feedback.FederationSAML, Name: "Okta", SAMLMetadataURL: "https://okta.example/md",
		Domains: []string{"okta.example"}}
	if err := saml.Validate(); err != nil {
		t.Errorf("Validate(saml) = %v", err)
	}
	for field, bad := range map[string]feedback.FederationInput{
		"kind":          {Kind: "ldap", Name: "X", Domains: []string{"x.example"}},
		"issuer":        {Name: "X", Issuer: "ftp://x", ClientID: "c", ClientSecret: "s", Domains: []string{"x.example"}},
		"client_secret": {Name: "X", Issuer: "https://x.example", ClientID: "c", Domains: []string{"x.example"}},
		"saml_metadata": {Kind: feedback.FederationSAML, Name: "X", SAMLMetadata: "<x/>", SAMLMetadataURL: "https://x", Domains: []string{"x.example"}},
		"domains":       {Name: "X", Issuer: "https://x.example", ClientID: "c", ClientSecret: "s", Domains: []string{"not a domain"}},
	} {
		err := bad.Validate()
		e, ok := err.(*feedback.Error)
		if !ok || e.Code != feedback.EValidation || e.Params[0].Name != field {
			t.Errorf("Validate(%+v) = %v; want a validation error at %s", bad, err, field)
		}
	}
}
