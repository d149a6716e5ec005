package storetest

import (
	"testing"
	"time"

	"github.com/feedbackhq/feedback/server"
	"github.com/feedbackhq/feedback/shared/feedback"
)

// idpFederation stores a federation of kind named name for domains.
func (f *fixture) idpFederation(name, kind string, domains ...string) *server.IdPFederation {
	f.t.Helper()
	fed := &server.IdPFederation{Name: name, Kind: kind, Issuer: "https://" + name + ".example", ClientID: "client",
		ClientSecret: []byte("sealed"), Domains: domains, CreatedAt: f.clock.Now()}
	if kind == "saml" {
		fed.ClientID, fed.SAMLMetadata = "", "<EntityDescriptor/>"
	}
	f.must(f.s.CreateIdPFederation(f.ctx(), fed))
	return fed
}

func testIdPFederation(t *testing.T, f *fixture) {
	acme := f.idpFederation("Acme", "oidc", "acme.example", "acme.org")
	if _, ok := feedback.ParseUUID(acme.ID); !ok {
		t.Fatalf("federation id %q", acme.ID)
	}
	f.clock.Add(time.Second)
	okta := f.idpFederation("Okta", "saml", "okta.example")

	all, err := f.s.IdPFederations(f.ctx())
	f.must(err)
	wantEqual(t, "the federations", []server.IdPFederation{*acme, *okta}, all)
	got, err := f.s.IdPFederation(f.ctx(), acme.ID)
	f.must(err)
	wantEqual(t, "a federation by id", acme, got)
	got, err = f.s.IdPFederationByDomain(f.ctx(), "acme.org")
	f.must(err)
	wantEqual(t, "a federation by domain", acme, got)
	for name, err := range map[string]error{
		"unknown id":       second(f.s.IdPFederation(f.ctx(), feedback.NewID())),
		"id not a UUID":    second(f.s.IdPFederation(f.ctx(), "acme")),
		"unknown domain":   second(f.s.IdPFederationByDomain(f.ctx(), "other.example")),
		"delete unknown":   f.s.DeleteIdPFederation(f.ctx(), feedback.NewID()),
		"delete not UUID":  f.s.DeleteIdPFederation(f.ctx(), "acme"),
		"state of unknown": f.s.CreateIdPFederationState(f.ctx(), &server.IdPFederationState{StateHash: []byte("s"), AuthRequestID: "s1", FederationID: feedback.NewID(), Verifier: []byte("v"), ExpiresAt: f.clock.Now()}, f.clock.Now()),
	} {
		if feedback.ErrorCode(err) != feedback.ENotFound {
			t.Errorf("%s: %v, want ENotFound", name, err)
		}
	}

	bad := &server.IdPFederation{ID: "acme", Name: "Bad", Kind: "oidc", Issuer: "https://bad.example", ClientID: "c",
		ClientSecret: []byte("s"), Domains: []string{"bad.example"}, CreatedAt: f.clock.Now()}
	wantCode(t, f.s.CreateIdPFederation(f.ctx(), bad), feedback.EValidation)
	taken := &server.IdPFederation{Name: "Other", Kind: "oidc", Issuer: "https://other.example", ClientID: "c",
		ClientSecret: []byte("s"), Domains: []string{"other.example", "acme.org"}, CreatedAt: f.clock.Now()}
	wantCode(t, f.s.CreateIdPFederation(f.ctx(), taken), feedback.EConflict)
	_, err = f.s.IdPFederationByDomain(f.ctx(), "other.example")
	wantCode(t, err, feedback.ENotFound) // nothing of the refused federation is kept

	f.must(f.s.DeleteIdPFederation(f.ctx(), acme.ID))
	_, err = f.s.IdPFederationByDomain(f.ctx(), "acme.example")
	wantCode(t, err, feedback.ENotFound)
	all, err = f.s.IdPFederations(f.ctx())
	f.must(err)
	if len(all) != 1 || all[0].ID != okta.ID {
		t.Errorf("after deleting Acme: %+v", all)
	}
	f.idpFederation("Acme again", "oidc", "acme.org") // its domains are free again
}

func testIdPFederationState(t *testing.T, f *fixture) {
	f.idpAuthRequest("s1")
	fed := f.idpFederation("Acme", "oidc", "acme.example")
	now := f.clock.Now()
	st := &server.IdPFederationState{StateHash: []byte("state"), AuthRequestID: "s1", FederationID: fed.ID,
		Nonce: "nonce", Verifier: []byte("sealed"), ExpiresAt: now.Add(10 * time.Minute)}
	f.must(f.s.CreateIdPFederationState(f.ctx(), st, now))
	wantCode(t, f.s.CreateIdPFederationState(f.ctx(), &server.IdPFederationState{StateHash: []byte("other"),
		AuthRequestID: "unknown", FederationID: fed.ID, Verifier: []byte("v"), ExpiresAt: now}, now), feedback.ENotFound)
	got, err := f.s.TakeIdPFederationState(f.ctx(), []byte("state"), now)
	f.must(err)
	st.ExpiresAt = st.ExpiresAt.UTC().Truncate(time.Microsecond)
	wantEqual(t, "the state", st, got)
	_, err = f.s.TakeIdPFederationState(f.ctx(), []byte("state"), now)
	wantCode(t, err, feedback.ENotFound) // once

	st.StateHash = []byte("late")
	f.must(f.s.CreateIdPFederationState(f.ctx(), st, now))
	_, err = f.s.TakeIdPFederationState(f.ctx(), []byte("late"), now.Add(10*time.Minute))
	wantCode(t, err, feedback.ENotFound)

	st.StateHash = []byte("orphan")
	f.must(f.s.CreateIdPFederationState(f.ctx(), st, now))
	f.must(f.s.DeleteIdPFederation(f.ctx(), fed.ID))
	_, err = f.s.TakeIdPFederationState(f.ctx(), []byte("orphan"), now)
	wantCode(t, err, feedback.ENotFound) // went with its federation
}

func testIdPSAML(t *testing.T, f *fixture) {
	f.idpAuthRequest("s1")
	fed := f.idpFederation("Okta", "saml", "okta.example")
	now := f.clock.Now()
	r := &server.IdPSAMLRequest{RelayHash: []byte("relay"), AuthRequestID: "s1", FederationID: fed.ID,
		RequestID: "id-123", ExpiresAt: now.Add(10 * time.Minute)}
	f.must(f.s.CreateIdPSAMLRequest(f.ctx(), r, now))
	wantCode(t, f.s.CreateIdPSAMLRequest(f.ctx(), &server.IdPSAMLRequest{RelayHash: []byte("x"), AuthRequestID: "s1",
		FederationID: feedback.NewID(), ExpiresAt: now}, now), feedback.ENotFound)
	_, err := f.s.TakeIdPSAMLRequest(f.ctx(), []byte("relay"), now.Add(10*time.Minute))
	wantCode(t, err, feedback.ENotFound) // expired
	got, err := f.s.TakeIdPSAMLRequest(f.ctx(), []byte("relay"), now)
	f.must(err)
	r.ExpiresAt = r.ExpiresAt.UTC().Truncate(time.Microsecond)
	wantEqual(t, "the SAML request", r, got)
	_, err = f.s.TakeIdPSAMLRequest(f.ctx(), []byte("relay"), now)
	wantCode(t, err, feedback.ENotFound) // once

	f.must(f.s.AddIdPSAMLAssertion(f.ctx(), fed.ID, "assertion-1", now.Add(time.Hour)))
	wantCode(t, f.s.AddIdPSAMLAssertion(f.ctx(), fed.ID, "assertion-1", now.Add(time.Hour)), feedback.EConflict)
	other := f.idpFederation("Other", "saml", "other.example")
	f.must(f.s.AddIdPSAMLAssertion(f.ctx(), other.ID, "assertion-1", now.Add(time.Hour)))
	wantCode(t, f.s.AddIdPSAMLAssertion(f.ctx(), feedback.NewID(), "assertion-2", now), feedback.ENotFound)
}
