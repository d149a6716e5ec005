package storetest

import (
	"sync/atomic"
	"testing"
	"time"

	"github.com/feedbackhq/feedback/shared/feedback"
)

// The password changes and TOTP enrolments that signed-in users make
// themselves (the dashboard's Account page).

func testIdPChangePassword(t *testing.T, f *fixture) {
	ann, bob := f.idpAccount("ann@example.com"), f.idpAccount("bob@example.com")
	for _, s := range []string{"s1", "s2"} {
		f.makeIdPTokens(ann.ID, s)
	}
	f.makeIdPTokens(bob.ID, "s3")
	f.must(f.s.ChangeIdPPassword(f.ctx(), ann.ID, "$argon2id$new", "s1", f.clock.Now()))
	a, err := f.s.IdPAccount(f.ctx(), ann.ID)
	f.must(err)
	if a.PasswordHash != "$argon2id$new" {
		t.Errorf("password hash %q after ChangeIdPPassword", a.PasswordHash)
	}
	f.wantIdPTokens(ann.ID, "s1", 1, "the sign-in kept")
	f.wantIdPTokens(ann.ID, "s2", 0, "another sign-in")
	f.wantIdPTokens(bob.ID, "s3", 1, "another account's sign-in")

	f.must(f.s.ChangeIdPPassword(f.ctx(), ann.ID, "$argon2id$newer", "", f.clock.Now()))
	f.wantIdPTokens(ann.ID, "s1", 0, "keeping none")
	for _, id := range []string{feedback.NewID(), "ann"} {
		wantCode(t, f.s.ChangeIdPPassword(f.ctx(), id, "x", "", f.clock.Now()), feedback.ENotFound)
	}
}

func testIdPPendingTOTP(t *testing.T, f *fixture) {
	ann := f.idpAccount("ann@example.com")
	now := f.clock.Now()
	wantCode(t, second(f.s.IdPPendingTOTP(f.ctx(), ann.ID, now)), feedback.ENotFound)
	f.must(f.s.BeginIdPTOTP(f.ctx(), ann.ID, []byte("first"), now.Add(15*time.Minute)))
	f.must(f.s.BeginIdPTOTP(f.ctx(), ann.ID, []byte("second"), now.Add(15*time.Minute))) // replaces
	got, err := f.s.IdPPendingTOTP(f.ctx(), ann.ID, now)
	f.must(err)
	if string(got) != "second" {
		t.Errorf("pending secret %q, want the second", got)
	}
	if a, _ := f.s.IdPAccount(f.ctx(), ann.ID); a.TOTPSecret != nil {
		t.Errorf("a pending enrolment gave the account a TOTP secret %q", a.TOTPSecret)
	}
	wantCode(t, second(f.s.IdPPendingTOTP(f.ctx(), ann.ID, now.Add(15*time.Minute))), feedback.ENotFound)
	wantCode(t, f.s.FinishIdPTOTP(f.ctx(), ann.ID, []byte("first"), 7, now), feedback.ENotFound) // replaced
	wantCode(t, f.s.FinishIdPTOTP(f.ctx(), ann.ID, []byte("second"), 7, now.Add(15*time.Minute)), feedback.ENotFound)

	f.must(f.s.FinishIdPTOTP(f.ctx(), ann.ID, []byte("second"), 7, now))
	a, err := f.s.IdPAccount(f.ctx(), ann.ID)
	f.must(err)
	if string(a.TOTPSecret) != "second" {
		t.Errorf("TOTP secret %q after FinishIdPTOTP", a.TOTPSecret)
	}
	if ok, _ := f.s.UseIdPTOTPStep(f.ctx(), ann.ID, 7); ok {
		t.Error("the step of the confirming code could be used again")
	}
	wantCode(t, second(f.s.IdPPendingTOTP(f.ctx(), ann.ID, now)), feedback.ENotFound)
	wantCode(t, f.s.FinishIdPTOTP(f.ctx(), ann.ID, []byte("second"), 8, now), feedback.ENotFound) // once

	f.must(f.s.BeginIdPTOTP(f.ctx(), ann.ID, []byte("third"), now.Add(time.Minute)))
	f.must(f.s.RemoveIdPTOTP(f.ctx(), ann.ID))
	a, err = f.s.IdPAccount(f.ctx(), ann.ID)
	f.must(err)
	if a.TOTPSecret != nil {
		t.Errorf("TOTP secret %q after RemoveIdPTOTP", a.TOTPSecret)
	}
	wantCode(t, second(f.s.IdPPendingTOTP(f.ctx(), ann.ID, now)), feedback.ENotFound)
	if ok, _ := f.s.UseIdPTOTPStep(f.ctx(), ann.ID, 7); ok {
		t.Error("removing TOTP made a used step usable again")
	}
	for _, id := range []string{feedback.NewID(), "ann"} {
		wantCode(t, f.s.BeginIdPTOTP(f.ctx(), id, []byte("s"), now.Add(time.Minute)), feedback.ENotFound)
		wantCode(t, second(f.s.IdPPendingTOTP(f.ctx(), id, now)), feedback.ENotFound)
		wantCode(t, f.s.FinishIdPTOTP(f.ctx(), id, []byte("s"), 1, now), feedback.ENotFound)
		wantCode(t, f.s.RemoveIdPTOTP(f.ctx(), id), feedback.ENotFound)
	}
}

// testIdPPendingTOTPConcurrent finishes one enrolment from several
// requests at once: one wins.
func testIdPPendingTOTPConcurrent(t *testing.T, f *fixture) {
	ann := f.idpAccount("ann@example.com")
	f.must(f.s.BeginIdPTOTP(f.ctx(), ann.ID, []byte("sealed"), f.clock.Now().Add(time.Minute)))
	var won atomic.Int32
	concurrently(t, 8, func(int) error {
		err := f.s.FinishIdPTOTP(f.ctx(), ann.ID, []byte("sealed"), 5, f.clock.Now())
		if err == nil {
			won.Add(1)
		}
		if feedback.ErrorCode(err) == feedback.ENotFound {
			return nil
		}
		return err
	})
	if won.Load() != 1 {
		t.Errorf("%d of 8 concurrent finishes won, want 1", won.Load())
	}
}
