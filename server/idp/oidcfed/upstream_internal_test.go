package oidcfed

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/feedbackhq/feedback/server/idp"
)

func TestUpstreamIdentity(t *testing.T) {
	u := &upstream{f: &idp.Federation{Domains: []string{"example.com"}}}
	for _, c := range []struct {
		name, email, verified string // verified: the raw JSON, "" when absent
		ok                    bool
	}{
		{"Verified", "Ann@Example.com", `true`, true},
		{"VerifiedAsString", "ann@example.com", `"true"`, true},
		{"Omitted", "ann@example.com", ``, true},
		{"Unverified", "ann@example.com", `false`, false},
		{"OtherDomain", "ann@example.org", `true`, false},
		{"OtherDomainOmitted", "ann@example.org", ``, false},
		{"Subdomain", "ann@mail.example.com", `true`, false},
		{"NoEmail", "", `true`, false},
	} {
		id, err := u.identity(upstreamClaims{Email: c.email, EmailVerified: json.RawMessage(c.verified)})
		if c.ok && (err != nil || id.Email != strings.ToLower(strings.TrimSpace(c.email))) || !c.ok && !errors.Is(err, idp.ErrUnverified) {
			t.Errorf("%s: %+v, %v", c.name, id, err)
		}
	}
}
