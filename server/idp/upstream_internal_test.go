package idp

import (
	"encoding/json"
	"errors"
	"slices"
	"testing"
)

func TestUpstreamIdentity(t *testing.T) {
	u := &upstream{f: &Federation{Domains: []string{"example.com"}}}
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
		if c.ok && (err != nil || id.email != normalizeEmail(c.email)) || !c.ok && !errors.Is(err, errUnverified) {
			t.Errorf("%s: %+v, %v", c.name, id, err)
		}
	}
}

func TestUpstreamMethods(t *testing.T) {
	id := &upstreamIdentity{amr: []string{"pwd", "fed", "hwk"}}
	for _, c := range []struct {
		name  string
		trust bool
		want  []string
		mfa   bool
	}{
		{"Untrusted", false, []string{"fed"}, false},
		{"Trusted", true, []string{"pwd", "hwk", "fed"}, true},
	} {
		f := &Federation{TrustUpstreamMFA: c.trust}
		if got := id.methods(f); !slices.Equal(got, c.want) || id.passesMFA(f) != c.mfa {
			t.Errorf("%s: amr %v, MFA %t; want %v, %t", c.name, got, id.passesMFA(f), c.want, c.mfa)
		}
	}
}
