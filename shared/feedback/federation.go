package feedback

import "strings"

// Kinds of identity federation.
const (
	FederationOIDC = "oidc" // an organisation's OpenID provider
	FederationSAML = "saml" // an organisation's SAML 2.0 IdP
)

// Federation is an organisation's own identity provider, through which
// the embedded provider signs in the addresses of its email domains. Its
// client secret is never answered.
type Federation struct {
	ID   string `json:"id"`
	Name string `json:"name"`
	Kind string `json:"kind"`
	// Issuer is the OpenID provider's issuer URL, or the SAML IdP's
	// entity ID.
	Issuer   string   `json:"issuer"`
	ClientID string   `json:"client_id"`
	Domains  []string `json:"domains"`
	// TrustMFA counts the second factor the provider reports.
	TrustMFA bool `json:"trust_mfa"`
	// RedirectURI (OpenID) is the redirect URI to register at the
	// provider; SPMetadataURL and ACSURL (SAML) are our SP entity ID,
	// where our metadata is, and the assertion consumer service.
	RedirectURI   string `json:"redirect_uri,omitempty"`
	SPMetadataURL string `json:"sp_metadata_url,omitempty"`
	ACSURL        string `json:"acs_url,omitempty"`
	CreatedAt     Time   `json:"created_at"`
}

// FederationInput is the body of POST /federations: an OpenID provider
// (issuer, client id and secret) or a SAML IdP (its metadata XML, or the
// URL to fetch it from).
type FederationInput struct {
	Kind            string   `json:"kind,omitempty"`
	Name            string   `json:"name"`
	Issuer          string   `json:"issuer,omitempty"`
	ClientID        string   `json:"client_id,omitempty"`
	ClientSecret    string   `json:"client_secret,omitempty"`
	SAMLMetadata    string   `json:"saml_metadata,omitempty"`
	SAMLMetadataURL string   `json:"saml_metadata_url,omitempty"`
	Domains         []string `json:"domains"`
	TrustMFA        bool     `json:"trust_mfa,omitempty"`
}

// Limits of a federation's fields.
const (
	MaxFederationName = 100
	MaxFederationURL  = 2000
	MaxSAMLMetadata   = 512 << 10
	MaxDomains        = 50
)

// Validate cleans the input and checks each field, naming the fields
// that are wrong: the kind (oidc when empty), a name, an OpenID
// provider's issuer URL, client id and secret, a SAML IdP's metadata or
// metadata URL (one of them), and 1 to 50 email domains, which it puts
// in lower case without a leading @.
func (in *FederationInput) Validate() error {
	var v Validator
	if in.Kind == "" {
		in.Kind = FederationOIDC
	}
	v.checkText(&in.Name, "name", MaxFederationName, true)
	switch in.Kind {
	case FederationOIDC:
		in.checkOpenID(&v)
	case FederationSAML:
		in.checkSAML(&v)
	default:
		v.Add("kind", "must be oidc or saml")
	}
	in.checkDomains(&v)
	return v.Err()
}

func (in *FederationInput) checkOpenID(v *Validator) {
	v.checkText(&in.Issuer, "issuer", MaxFederationURL, true)
	if in.Issuer != "" && !strings.HasPrefix(in.Issuer, "https://") && !strings.HasPrefix(in.Issuer, "http://") {
		v.Add("issuer", "must be an https URL")
	}
	v.checkText(&in.ClientID, "client_id", MaxFederationURL, true)
	v.checkText(&in.ClientSecret, "client_secret", MaxFederationURL, true)
	v.Check(in.SAMLMetadata == "" && in.SAMLMetadataURL == "", "saml_metadata", "belongs to a SAML federation only")
}

func (in *FederationInput) checkSAML(v *Validator) {
	v.checkText(&in.SAMLMetadata, "saml_metadata", MaxSAMLMetadata, false)
	v.checkText(&in.SAMLMetadataURL, "saml_metadata_url", MaxFederationURL, false)
	if (in.SAMLMetadata == "") == (in.SAMLMetadataURL == "") {
		v.Add("saml_metadata", "needs the XML or its URL, one of them")
	}
	v.Check(in.Issuer == "" && in.ClientID == "" && in.ClientSecret == "", "issuer",
		"belongs to an OpenID federation only: a SAML IdP's entity ID is read from its metadata")
}

func (in *FederationInput) checkDomains(v *Validator) {
	if !v.Check(len(in.Domains) > 0 && len(in.Domains) <= MaxDomains, "domains", "must list 1 to 50 email domains") {
		return
	}
	for i, d := range in.Domains {
		d = strings.ToLower(strings.TrimPrefix(strings.TrimSpace(d), "@"))
		in.Domains[i] = d
		if !ValidEmail("x@" + d) {
			v.Addf("domains", "%q is not an email domain", d)
			return
		}
	}
}
