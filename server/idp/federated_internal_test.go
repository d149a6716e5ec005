package idp

import (
	"slices"
	"testing"
)

func TestUpstreamMethods(t *testing.T) {
	id := Identity{AMR: []string{"pwd", "fed", "hwk"}}
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
		if got := methods(id, f); !slices.Equal(got, c.want) || passesMFA(id, f) != c.mfa {
			t.Errorf("%s: amr %v, MFA %t; want %v, %t", c.name, got, passesMFA(id, f), c.want, c.mfa)
		}
	}
}
