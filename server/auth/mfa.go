package auth

import (
	"encoding/json"
	"slices"
	"strings"

	"golang.org/x/oauth2"
)

// MFAClass is the authentication context class (acr) of a sign-in with a
// second factor that the embedded provider advertises and honours: the
// OpenID PAPE multi-factor policy.
const MFAClass = "http://schemas.openid.net/pape/policies/2007/06/multi-factor"

// mfaClasses are the acr values that ask for a second factor, in order
// of preference: PAPE multi-factor, "mfa" (providers that name classes
// after RFC 8176 methods), Okta's any second factor, then the
// phishing-resistant ones (PAPE, and "phr"/"phrh" of the OpenID EAP ACR
// values), which ask for more than a one-time code.
var mfaClasses = []string{MFAClass, "mfa", "urn:okta:loa:2fa:any",
	"http://schemas.openid.net/pape/policies/2007/06/phishing-resistant", "phr", "phrh"}

// secondFactors are the RFC 8176 methods that prove more than a
// password.
var secondFactors = []string{"mfa", "otp", "hwk", "swk", "sms", "tel", "fpt", "face", "iris", "retina", "vbm", "sc"}

// HasSecondFactor reports whether amr names a second factor.
func HasSecondFactor(amr []string) bool {
	return slices.ContainsFunc(amr, func(m string) bool { return slices.Contains(secondFactors, m) })
}

// IsMFAClass reports whether acr is a class that asks for a second
// factor.
func IsMFAClass(acr string) bool { return slices.Contains(mfaClasses, acr) }

func orNone(amr []string) []string {
	if len(amr) == 0 {
		return []string{"no reported method"}
	}
	return amr
}

// mfaRequest returns the authorization request's parameters that ask
// the provider of m for a second factor, as far as its discovery
// document says it understands them: acr_values with the advertised
// classes of mfaClasses, and a claims request (when
// claims_parameter_supported) for an essential amr with a second
// factor's method (when amr is a supported claim) and an essential acr
// of those classes.
func mfaRequest(m metadata) []oauth2.AuthCodeOption {
	var classes []string
	for _, c := range mfaClasses {
		if slices.Contains(m.ACRValues, c) {
			classes = append(classes, c)
		}
	}
	var opts []oauth2.AuthCodeOption
	if len(classes) > 0 {
		opts = append(opts, oauth2.SetAuthURLParam("acr_values", strings.Join(classes, " ")))
	}
	if claims := claimsRequest(m, classes); m.ClaimsParameter && claims != "" {
		opts = append(opts, oauth2.SetAuthURLParam("claims", claims))
	}
	return opts
}

// essential is a claim request of OpenID Connect Core §5.5.1.
type essential struct {
	Essential bool     `json:"essential"`
	Values    []string `json:"values,omitempty"`
}

// claimsRequest returns the claims parameter that asks for an ID token
// whose amr names a second factor and whose acr is one of classes, or ""
// when the provider supports neither claim.
func claimsRequest(m metadata, classes []string) string {
	idToken := map[string]essential{}
	if slices.Contains(m.Claims, "amr") {
		idToken["amr"] = essential{Essential: true, Values: secondFactors}
	}
	if len(classes) > 0 {
		idToken["acr"] = essential{Essential: true, Values: classes}
	}
	if len(idToken) == 0 {
		return ""
	}
	b, _ := json.Marshal(map[string]any{"id_token": idToken})
	return string(b)
}
