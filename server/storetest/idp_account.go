package storetest

import (
	"sync/atomic"
	"testing"
	"time"

	"github.com/feedbackhq/feedback/server"
	"github.com/feedbackhq/feedback/shared/feedback"
)

// The embedded provider's store: accounts, links and enrolments here;
// sign-ins and tokens in idp_signin.go; keys, throttling and the purge in
// idp_key.go; federations in idp_federation.go.
func testIdP(t *testing.T, h harness) {
	h.run(t, "Account", testIdPAccount)
	h.run(t, "AccountConcurrent", testIdPAccountConcurrent)
	h.run(t, "TOTP", testIdPTOTP)
	h.run(t, "MFARequired", testIdPMFARequired)
	h.run(t, "ChangePassword", testIdPChangePassword)
	h.run(t, "PendingTOTP", testIdPPendingTOTP)
	h.run(t, "PendingTOTPConcurrent", testIdPPendingTOTPConcurrent)
	h.run(t, "PasswordLink", testIdPPasswordLink)
	h.run(t, "PasswordLinkConcurrent", testIdPPasswordLinkConcurrent)
	h.run(t, "Enrolment", testIdPEnrolment)
	h.run(t, "SignIn", testIdPSignIn)
	h.run(t, "Code", testIdPCode)
	h.run(t, "CodeConcurrent", testIdPCodeConcurrent)
	h.run(t, "Tokens", testIdPTokens)
	h.run(t, "TokenRotationConcurrent", testIdPRotationConcurrent)
	h.run(t, "Revoke", testIdPRevoke)
	h.run(t, "SigningKeys", testIdPSigningKeys)
	h.run(t, "Reserve", testIdPReserve)
	h.run(t, "ReserveConcurrent", testIdPReserveConcurrent)
	h.run(t, "Refund", testIdPRefund)
	h.run(t, "Federation", testIdPFederation)
	h.run(t, "FederationState", testIdPFederationState)
	h.run(t, "SAML", testIdPSAML)
	h.run(t, "Purge", testIdPPurge)
}

// idpAccount makes the account of email and returns it.
func (f *fixture) idpAccount(email string) *server.IdPAccount {
	f.t.Helper()
	id, err := f.s.EnsureIdPAccount(f.ctx(), email, f.clock.Now())
	f.must(err)
	a, err := f.s.IdPAccount(f.ctx(), id)
	f.must(err)
	return a
}

func testIdPAccount(t *testing.T, f *fixture) {
	id, err := f.s.EnsureIdPAccount(f.ctx(), "ann@example.com", f.clock.Now())
	f.must(err)
	again, err := f.s.EnsureIdPAccount(f.ctx(), "ann@example.com", f.clock.Now())
	f.must(err)
	if _, ok := feedback.ParseUUID(id); !ok || again != id {
		t.Errorf("EnsureIdPAccount: %q, then %q; want one UUID", id, again)
	}
	want := &server.IdPAccount{ID: id, Email: "ann@example.com"}
	a, err := f.s.IdPAccount(f.ctx(), id)
	f.must(err)
	wantEqual(t, "a new account", want, a)
	a, err = f.s.IdPAccountByEmail(f.ctx(), "ann@example.com")
	f.must(err)
	wantEqual(t, "the account by email", want, a)

	f.must(f.s.SetIdPPassword(f.ctx(), id, "$argon2id$hash", f.clock.Now()))
	a, err = f.s.IdPAccount(f.ctx(), id)
	f.must(err)
	if a.PasswordHash != "$argon2id$hash" {
		t.Errorf("password hash %q after SetIdPPassword", a.PasswordHash)
	}

	for name, err := range map[string]error{
		"unknown id":         second(f.s.IdPAccount(f.ctx(), feedback.NewID())),
		"id not a UUID":      second(f.s.IdPAccount(f.ctx(), "ann")),
		"unknown email":      second(f.s.IdPAccountByEmail(f.ctx(), "bob@example.com")),
		"password, unknown":  f.s.SetIdPPassword(f.ctx(), feedback.NewID(), "x", f.clock.Now()),
		"password, not UUID": f.s.SetIdPPassword(f.ctx(), "ann", "x", f.clock.Now()),
		"TOTP, unknown":      f.s.SetIdPTOTP(f.ctx(), feedback.NewID(), []byte("s"), 0, f.clock.Now()),
	} {
		if feedback.ErrorCode(err) != feedback.ENotFound {
			t.Errorf("%s: %v, want ENotFound", name, err)
		}
	}
}

// second returns the error of a call that returns a value and an error.
func second[T any](_ T, err error) error { return err }

// testIdPAccountConcurrent makes one account of concurrent first sign-ins.
func testIdPAccountConcurrent(t *testing.T, f *fixture) {
	const n = 8
	ids := make([]string, n)
	concurrently(t, n, func(i int) (err error) {
		ids[i], err = f.s.EnsureIdPAccount(f.ctx(), "ann@example.com", f.clock.Now())
		return err
	})
	for _, id := range ids {
		if id != ids[0] {
			t.Fatalf("concurrent EnsureIdPAccount made several accounts: %v", ids)
		}
	}
}

func testIdPTOTP(t *testing.T, f *fixture) {
	a := f.idpAccount("ann@example.com")
	f.must(f.s.SetIdPTOTP(f.ctx(), a.ID, []byte("sealed"), 100, f.clock.Now()))
	got, err := f.s.IdPAccount(f.ctx(), a.ID)
	f.must(err)
	if string(got.TOTPSecret) != "sealed" {
		t.Errorf("TOTP secret %q", got.TOTPSecret)
	}
	for _, c := range []struct {
		step int64
		want bool
	}{{100, false}, {99, false}, {101, true}, {101, false}, {103, true}, {102, false}} {
		ok, err := f.s.UseIdPTOTPStep(f.ctx(), a.ID, c.step)
		f.must(err)
		if ok != c.want {
			t.Errorf("UseIdPTOTPStep(%d): %t, want %t", c.step, ok, c.want)
		}
	}
	var won atomic.Int32
	concurrently(t, 8, func(int) error {
		ok, err := f.s.UseIdPTOTPStep(f.ctx(), a.ID, 200)
		if ok {
			won.Add(1)
		}
		return err
	})
	if won.Load() != 1 {
		t.Errorf("%d of 8 concurrent uses of one step won, want 1", won.Load())
	}
	for _, id := range []string{feedback.NewID(), "ann"} {
		if ok, err := f.s.UseIdPTOTPStep(f.ctx(), id, 300); ok || err != nil {
			t.Errorf("UseIdPTOTPStep of account %q: %t, %v; want false", id, ok, err)
		}
	}
}

func testIdPMFARequired(t *testing.T, f *fixture) {
	got, err := f.s.IdPMFARequired(f.ctx())
	f.must(err)
	if got {
		t.Error("a new store requires MFA")
	}
	for _, want := range []bool{true, true, false} {
		f.must(f.s.SetIdPMFARequired(f.ctx(), want))
		got, err := f.s.IdPMFARequired(f.ctx())
		f.must(err)
		if got != want {
			t.Errorf("IdPMFARequired: %t, want %t", got, want)
		}
	}
}

func testIdPPasswordLink(t *testing.T, f *fixture) {
	now := f.clock.Now()
	id, err := f.s.CreateIdPPasswordLink(f.ctx(), "ann@example.com", []byte("link1"), now, now.Add(time.Hour))
	f.must(err)
	f.must(f.s.SetIdPTOTP(f.ctx(), id, []byte("old"), 0, now))
	f.makeIdPTokens(id, "signin")
	again, err := f.s.CreateIdPPasswordLink(f.ctx(), "ann@example.com", []byte("link2"), now, now.Add(time.Hour))
	f.must(err)
	if again != id {
		t.Errorf("a second link made another account: %s, %s", id, again)
	}
	_, err = f.s.IdPPasswordLink(f.ctx(), []byte("link1"), now)
	wantCode(t, err, feedback.ENotFound) // replaced by link2
	a, err := f.s.IdPPasswordLink(f.ctx(), []byte("link2"), now)
	f.must(err)
	if a.ID != id || a.Email != "ann@example.com" {
		t.Errorf("the link's account: %+v", a)
	}

	e := &server.IdPEnrolment{TicketHash: []byte("ticket"), Secret: []byte("sealed"), ExpiresAt: now.Add(15 * time.Minute)}
	f.must(f.s.UseIdPPasswordLink(f.ctx(), []byte("link2"), "$argon2id$new", e, now))
	got, err := f.s.IdPAccount(f.ctx(), id)
	f.must(err)
	if got.PasswordHash != "$argon2id$new" {
		t.Errorf("password hash %q after the link", got.PasswordHash)
	}
	f.wantIdPTokens(id, "signin", 0, "after the link")
	en, err := f.s.IdPEnrolment(f.ctx(), []byte("ticket"), now)
	f.must(err)
	wantEqual(t, "the enrolment", &server.IdPEnrolment{TicketHash: []byte("ticket"), AccountID: id,
		Email: "ann@example.com", Secret: []byte("sealed"), ExpiresAt: f.clock.stored().Add(15 * time.Minute)}, en)

	wantCode(t, f.s.UseIdPPasswordLink(f.ctx(), []byte("link2"), "x", nil, now), feedback.ENotFound) // used
	_, err = f.s.IdPPasswordLink(f.ctx(), []byte("link2"), now)
	wantCode(t, err, feedback.ENotFound)

	_, err = f.s.CreateIdPPasswordLink(f.ctx(), "ann@example.com", []byte("link3"), now, now.Add(time.Hour))
	f.must(err)
	late := now.Add(time.Hour)
	_, err = f.s.IdPPasswordLink(f.ctx(), []byte("link3"), late)
	wantCode(t, err, feedback.ENotFound)
	wantCode(t, f.s.UseIdPPasswordLink(f.ctx(), []byte("link3"), "x", nil, late), feedback.ENotFound)
	f.must(f.s.UseIdPPasswordLink(f.ctx(), []byte("link3"), "$argon2id$3", nil, late.Add(-time.Microsecond)))
}

// testIdPPasswordLinkConcurrent spends one link from many requests: one
// wins.
func testIdPPasswordLinkConcurrent(t *testing.T, f *fixture) {
	now := f.clock.Now()
	_, err := f.s.CreateIdPPasswordLink(f.ctx(), "ann@example.com", []byte("link"), now, now.Add(time.Hour))
	f.must(err)
	const n = 8
	got := concurrently(t, n, func(int) error {
		return f.s.UseIdPPasswordLink(f.ctx(), []byte("link"), "$argon2id$x", nil, now)
	}, feedback.ENotFound)
	wantEqual(t, "the outcomes of concurrent uses of one link", map[string]int{"": 1, feedback.ENotFound: n - 1}, got)
}

func testIdPEnrolment(t *testing.T, f *fixture) {
	now := f.clock.Now()
	id, err := f.s.CreateIdPPasswordLink(f.ctx(), "ann@example.com", []byte("link"), now, now.Add(time.Hour))
	f.must(err)
	e := &server.IdPEnrolment{TicketHash: []byte("t1"), Secret: []byte("pending"), ExpiresAt: now.Add(15 * time.Minute)}
	f.must(f.s.UseIdPPasswordLink(f.ctx(), []byte("link"), "$argon2id$x", e, now))

	f.must(f.s.RenewIdPEnrolment(f.ctx(), []byte("t1"), []byte("t2")))
	f.must(f.s.RenewIdPEnrolment(f.ctx(), []byte("unknown"), []byte("t3")))
	_, err = f.s.IdPEnrolment(f.ctx(), []byte("t1"), now)
	wantCode(t, err, feedback.ENotFound)
	_, err = f.s.IdPEnrolment(f.ctx(), []byte("t3"), now)
	wantCode(t, err, feedback.ENotFound)
	late := now.Add(15 * time.Minute)
	_, err = f.s.IdPEnrolment(f.ctx(), []byte("t2"), late)
	wantCode(t, err, feedback.ENotFound)
	wantCode(t, f.s.FinishIdPEnrolment(f.ctx(), []byte("t2"), []byte("secret"), 7, late), feedback.ENotFound)

	f.must(f.s.FinishIdPEnrolment(f.ctx(), []byte("t2"), []byte("secret"), 7, now))
	a, err := f.s.IdPAccount(f.ctx(), id)
	f.must(err)
	if string(a.TOTPSecret) != "secret" {
		t.Errorf("TOTP secret %q after the enrolment", a.TOTPSecret)
	}
	if ok, err := f.s.UseIdPTOTPStep(f.ctx(), id, 7); ok || err != nil {
		t.Errorf("the enrolment's step counts as used: %t, %v", ok, err)
	}
	_, err = f.s.IdPEnrolment(f.ctx(), []byte("t2"), now)
	wantCode(t, err, feedback.ENotFound)
	wantCode(t, f.s.FinishIdPEnrolment(f.ctx(), []byte("t2"), []byte("again"), 8, now), feedback.ENotFound)
}
