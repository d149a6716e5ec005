package storetest

import (
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/feedbackhq/feedback/server"
	"github.com/feedbackhq/feedback/shared/feedback"
)

// idpClient is the client of the embedded provider in these tests.
const idpClient = "dashboard"

// idpAuthRequest stores a sign-in id that lasts 30 minutes.
func (f *fixture) idpAuthRequest(id string) *server.IdPAuthRequest {
	f.t.Helper()
	a := &server.IdPAuthRequest{ID: id, ClientID: idpClient, RedirectURI: "https://rp.example/callback",
		Scopes: []string{"openid", "email"}, State: "state", Nonce: "nonce", ResponseType: "code",
		CodeChallenge: "challenge", CodeChallengeMethod: "S256", AMR: []string{}, MFARequested: true,
		ExpiresAt: f.clock.Now().Add(30 * time.Minute)}
	f.must(f.s.CreateIdPAuthRequest(f.ctx(), a, f.clock.Now()))
	return a
}

func testIdPSignIn(t *testing.T, f *fixture) {
	ann, bob := f.idpAccount("ann@example.com"), f.idpAccount("bob@example.com")
	a := f.idpAuthRequest("s1")
	got, err := f.s.IdPAuthRequest(f.ctx(), "s1", f.clock.Now())
	f.must(err)
	want := *a
	want.ExpiresAt = f.clock.stored().Add(30 * time.Minute)
	wantEqual(t, "a new sign-in", &want, got)
	wantCode(t, f.s.CreateIdPAuthRequest(f.ctx(), a, f.clock.Now()), feedback.EConflict)

	// A second factor must follow the password step of the same account.
	wantCode(t, f.s.CompleteIdPAuthRequest(f.ctx(), "s1", ann.ID, []string{"pwd", "otp"}, true, f.clock.Now()), feedback.ENotFound)
	f.must(f.s.RecordIdPPassword(f.ctx(), "s1", ann.ID, f.clock.Now()))
	wantCode(t, f.s.CompleteIdPAuthRequest(f.ctx(), "s1", bob.ID, []string{"pwd", "otp"}, true, f.clock.Now()), feedback.ENotFound)
	f.clock.Add(time.Minute)
	f.must(f.s.CompleteIdPAuthRequest(f.ctx(), "s1", ann.ID, []string{"pwd", "otp"}, true, f.clock.Now()))
	got, err = f.s.IdPAuthRequest(f.ctx(), "s1", f.clock.Now())
	f.must(err)
	at, passwordAt := f.clock.stored(), f.clock.stored().Add(-time.Minute)
	want.AccountID, want.PasswordAt, want.AuthTime, want.AMR = ann.ID, &passwordAt, &at, []string{"pwd", "otp"}
	wantEqual(t, "a complete sign-in", &want, got)
	for name, err := range map[string]error{
		"complete twice":   f.s.CompleteIdPAuthRequest(f.ctx(), "s1", ann.ID, []string{"pwd"}, false, f.clock.Now()),
		"password after":   f.s.RecordIdPPassword(f.ctx(), "s1", ann.ID, f.clock.Now()),
		"unknown sign-in":  f.s.RecordIdPPassword(f.ctx(), "nope", ann.ID, f.clock.Now()),
		"account not UUID": f.s.CompleteIdPAuthRequest(f.ctx(), "s1", "ann", nil, false, f.clock.Now()),
	} {
		if feedback.ErrorCode(err) != feedback.ENotFound {
			t.Errorf("%s: %v, want ENotFound", name, err)
		}
	}

	f.idpAuthRequest("s2")
	f.must(f.s.CompleteIdPAuthRequest(f.ctx(), "s2", bob.ID, []string{"fed"}, false, f.clock.Now()))
	f.idpAuthRequest("s3")
	f.clock.Add(30 * time.Minute)
	_, err = f.s.IdPAuthRequest(f.ctx(), "s3", f.clock.Now())
	wantCode(t, err, feedback.ENotFound)
	wantCode(t, f.s.CompleteIdPAuthRequest(f.ctx(), "s3", bob.ID, []string{"pwd"}, false, f.clock.Now()), feedback.ENotFound)
}

// completeIdPSignIn stores sign-in id, complete for accountID.
func (f *fixture) completeIdPSignIn(id, accountID string) {
	f.t.Helper()
	f.idpAuthRequest(id)
	f.must(f.s.CompleteIdPAuthRequest(f.ctx(), id, accountID, []string{"pwd"}, false, f.clock.Now()))
}

func testIdPCode(t *testing.T, f *fixture) {
	ann := f.idpAccount("ann@example.com")
	f.idpAuthRequest("open")
	now := f.clock.Now()
	wantCode(t, f.s.SaveIdPCode(f.ctx(), "open", []byte("c0"), now.Add(5*time.Minute), now.Add(time.Hour), now), feedback.ENotFound)
	f.completeIdPSignIn("s1", ann.ID)
	f.must(f.s.SaveIdPCode(f.ctx(), "s1", []byte("c1"), now.Add(5*time.Minute), now.Add(time.Hour), now))
	wantCode(t, f.s.SaveIdPCode(f.ctx(), "s1", []byte("c2"), now.Add(5*time.Minute), now.Add(time.Hour), now), feedback.ENotFound)
	a, err := f.s.IdPAuthRequest(f.ctx(), "s1", now.Add(59*time.Minute)) // the code made it last longer
	f.must(err)
	if a.AccountID != ann.ID {
		t.Errorf("the sign-in of the code: %+v", a)
	}

	wantCode(t, f.s.RevokeIdPCodeGrant(f.ctx(), []byte("c1")), feedback.ENotFound) // not used yet
	a, err = f.s.SpendIdPCode(f.ctx(), []byte("c1"), now)
	f.must(err)
	if a.ID != "s1" || a.AccountID != ann.ID || a.AuthTime == nil {
		t.Errorf("SpendIdPCode: %+v", a)
	}
	_, err = f.s.SpendIdPCode(f.ctx(), []byte("c1"), now)
	wantCode(t, err, feedback.ENotFound)
	f.makeIdPTokens(ann.ID, "s1")
	f.makeIdPTokens(ann.ID, "other")
	f.must(f.s.RevokeIdPCodeGrant(f.ctx(), []byte("c1")))
	f.wantIdPTokens(ann.ID, "s1", 0, "after the code was reused")
	f.wantIdPTokens(ann.ID, "other", 1, "another sign-in's, after the code was reused")

	f.completeIdPSignIn("s2", ann.ID)
	f.must(f.s.SaveIdPCode(f.ctx(), "s2", []byte("c3"), now.Add(5*time.Minute), now.Add(time.Hour), now))
	_, err = f.s.SpendIdPCode(f.ctx(), []byte("c3"), now.Add(5*time.Minute))
	wantCode(t, err, feedback.ENotFound)
	_, err = f.s.SpendIdPCode(f.ctx(), []byte("unknown"), now)
	wantCode(t, err, feedback.ENotFound)
}

// testIdPCodeConcurrent spends one code from many requests: one wins.
func testIdPCodeConcurrent(t *testing.T, f *fixture) {
	ann := f.idpAccount("ann@example.com")
	f.completeIdPSignIn("s1", ann.ID)
	now := f.clock.Now()
	f.must(f.s.SaveIdPCode(f.ctx(), "s1", []byte("code"), now.Add(5*time.Minute), now.Add(time.Hour), now))
	const n = 8
	got := concurrently(t, n, func(int) error {
		_, err := f.s.SpendIdPCode(f.ctx(), []byte("code"), now)
		return err
	}, feedback.ENotFound)
	wantEqual(t, "the outcomes of concurrent spends of one code", map[string]int{"": 1, feedback.ENotFound: n - 1}, got)
}

// makeIdPTokens stores a refresh token ("h-"+signIn its value's hash, id
// "r-"+signIn) and an access token ("a-"+signIn) issued with it, of the
// account's sign-in, at idpClient.
func (f *fixture) makeIdPTokens(accountID, signIn string) {
	f.t.Helper()
	now := f.clock.Now()
	r, a := f.idpTokens(accountID, signIn)
	f.must(f.s.CreateIdPTokens(f.ctx(), nil, r, a, now))
}

func (f *fixture) idpTokens(accountID, signIn string) (*server.IdPRefreshToken, *server.IdPAccessToken) {
	now := f.clock.Now()
	r := &server.IdPRefreshToken{ID: "r-" + signIn, Hash: []byte("h-" + signIn), ClientID: idpClient,
		AccountID: accountID, AuthRequestID: signIn, Scopes: []string{"openid", "offline_access"},
		AMR: []string{"pwd"}, AuthTime: now, ExpiresAt: now.Add(30 * 24 * time.Hour)}
	a := &server.IdPAccessToken{ID: "a-" + signIn, ClientID: idpClient, AccountID: accountID, AuthRequestID: signIn,
		RefreshTokenID: r.ID, Scopes: []string{"openid"}, ExpiresAt: now.Add(15 * time.Minute)}
	return r, a
}

// wantIdPTokens checks that the tokens of makeIdPTokens are there (n 1)
// or gone (n 0).
func (f *fixture) wantIdPTokens(accountID, signIn string, n int, what string) {
	f.t.Helper()
	_, errA := f.s.IdPAccessToken(f.ctx(), "a-"+signIn, f.clock.Now())
	_, errR := f.s.IdPRefreshToken(f.ctx(), []byte("h-"+signIn))
	for _, err := range []error{errA, errR} {
		if n == 1 && err != nil || n == 0 && feedback.ErrorCode(err) != feedback.ENotFound {
			f.t.Errorf("%s: the tokens of %s: %v, want %d", what, signIn, err, n)
		}
	}
}

func testIdPTokens(t *testing.T, f *fixture) {
	ann := f.idpAccount("ann@example.com")
	f.makeIdPTokens(ann.ID, "s1")
	r, a := f.idpTokens(ann.ID, "s1")
	stored := func(v time.Time) time.Time { return v.UTC().Truncate(time.Microsecond) }
	r.AuthTime, r.ExpiresAt, a.ExpiresAt = stored(r.AuthTime), stored(r.ExpiresAt), stored(a.ExpiresAt)
	gotR, err := f.s.IdPRefreshToken(f.ctx(), []byte("h-s1"))
	f.must(err)
	wantEqual(t, "the refresh token", r, gotR)
	gotA, err := f.s.IdPAccessToken(f.ctx(), "a-s1", f.clock.Now())
	f.must(err)
	wantEqual(t, "the access token", a, gotA)

	alone := &server.IdPAccessToken{ID: "alone", ClientID: idpClient, AccountID: ann.ID, AuthRequestID: "s0",
		Scopes: []string{"openid"}, ExpiresAt: f.clock.stored().Add(15 * time.Minute)}
	f.must(f.s.CreateIdPAccessToken(f.ctx(), alone, f.clock.Now()))
	got, err := f.s.IdPAccessToken(f.ctx(), "alone", f.clock.Now())
	f.must(err)
	wantEqual(t, "an access token without refresh token", alone, got)

	for _, account := range []string{feedback.NewID(), "ann"} {
		r, a := f.idpTokens(account, "s9")
		wantCode(t, f.s.CreateIdPTokens(f.ctx(), nil, r, a, f.clock.Now()), feedback.ENotFound)
		wantCode(t, f.s.CreateIdPAccessToken(f.ctx(), a, f.clock.Now()), feedback.ENotFound)
	}

	// Rotation: the new pair replaces the old refresh token and its access token.
	r2, a2 := f.idpTokens(ann.ID, "s1")
	r2.ID, r2.Hash, a2.ID, a2.RefreshTokenID = "r-next", []byte("h-next"), "a-next", "r-next"
	f.must(f.s.CreateIdPTokens(f.ctx(), []byte("h-s1"), r2, a2, f.clock.Now()))
	f.wantIdPTokens(ann.ID, "s1", 0, "after the rotation")
	r3, a3 := f.idpTokens(ann.ID, "s1")
	wantCode(t, f.s.CreateIdPTokens(f.ctx(), []byte("h-s1"), r3, a3, f.clock.Now()), feedback.ENotFound)
	if _, err := f.s.IdPAccessToken(f.ctx(), "a-s1", f.clock.Now()); feedback.ErrorCode(err) != feedback.ENotFound {
		t.Errorf("a refused rotation stored its access token: %v", err)
	}

	f.clock.Add(15 * time.Minute) // the access tokens expire; the refresh token does not
	_, err = f.s.IdPAccessToken(f.ctx(), "a-next", f.clock.Now())
	wantCode(t, err, feedback.ENotFound)
	f.clock.Add(30 * 24 * time.Hour) // now the refresh token has expired: returned, but not spent
	gotR, err = f.s.IdPRefreshToken(f.ctx(), []byte("h-next"))
	f.must(err)
	if gotR.ExpiresAt.After(f.clock.Now()) {
		t.Errorf("the refresh token expires at %v, after %v", gotR.ExpiresAt, f.clock.Now())
	}
	r4, a4 := f.idpTokens(ann.ID, "s4")
	wantCode(t, f.s.CreateIdPTokens(f.ctx(), []byte("h-next"), r4, a4, f.clock.Now()), feedback.ENotFound)
}

// testIdPRotationConcurrent rotates one refresh token from many requests:
// one wins, and one pair of tokens follows it.
func testIdPRotationConcurrent(t *testing.T, f *fixture) {
	ann := f.idpAccount("ann@example.com")
	f.makeIdPTokens(ann.ID, "s1")
	const n = 8
	got := concurrently(t, n, func(i int) error {
		r, a := f.idpTokens(ann.ID, "s1")
		r.ID, r.Hash, a.ID = fmt.Sprint("r", i), fmt.Append(nil, "h", i), fmt.Sprint("a", i)
		a.RefreshTokenID = r.ID
		return f.s.CreateIdPTokens(f.ctx(), []byte("h-s1"), r, a, f.clock.Now())
	}, feedback.ENotFound)
	wantEqual(t, "the outcomes of concurrent rotations", map[string]int{"": 1, feedback.ENotFound: n - 1}, got)
	stored := 0
	for i := range n { // the winner's pair is stored, and no other
		_, errR := f.s.IdPRefreshToken(f.ctx(), fmt.Append(nil, "h", i))
		_, errA := f.s.IdPAccessToken(f.ctx(), fmt.Sprint("a", i), f.clock.Now())
		if (errR == nil) != (errA == nil) {
			t.Errorf("rotation %d stored half its pair: %v, %v", i, errR, errA)
		}
		if errR == nil {
			stored++
		}
	}
	if stored != 1 {
		t.Errorf("%d rotations stored their tokens, want 1", stored)
	}
}

func testIdPRevoke(t *testing.T, f *fixture) {
	ann, bob := f.idpAccount("ann@example.com"), f.idpAccount("bob@example.com")
	for _, s := range []string{"s1", "s2", "s3"} {
		f.makeIdPTokens(ann.ID, s)
	}
	f.makeIdPTokens(bob.ID, "s4")
	ids, err := f.s.IdPSignIns(f.ctx(), ann.ID, idpClient)
	f.must(err)
	wantEqual(t, "the sign-ins of ann", []string{"s1", "s2", "s3"}, slices.Sorted(slices.Values(ids)))
	for _, q := range [][2]string{{ann.ID, "other-client"}, {"ann", idpClient}} {
		ids, err := f.s.IdPSignIns(f.ctx(), q[0], q[1])
		if err != nil || len(ids) != 0 {
			t.Errorf("IdPSignIns(%s, %s): %v, %v; want none", q[0], q[1], ids, err)
		}
	}

	f.must(f.s.RevokeIdPToken(f.ctx(), "a-s1", "other-client")) // another client's: nothing
	f.wantIdPTokens(ann.ID, "s1", 1, "revoked by another client")
	f.must(f.s.RevokeIdPToken(f.ctx(), "a-s1", idpClient))
	if _, err := f.s.IdPAccessToken(f.ctx(), "a-s1", f.clock.Now()); feedback.ErrorCode(err) != feedback.ENotFound {
		t.Errorf("the revoked access token: %v", err)
	}
	if _, err := f.s.IdPRefreshToken(f.ctx(), []byte("h-s1")); err != nil {
		t.Errorf("revoking an access token revoked its refresh token: %v", err)
	}
	f.must(f.s.RevokeIdPToken(f.ctx(), "r-s2", idpClient)) // a refresh token takes its access tokens along
	f.wantIdPTokens(ann.ID, "s2", 0, "after revoking the refresh token")
	f.must(f.s.RevokeIdPToken(f.ctx(), "unknown", idpClient))

	f.must(f.s.RevokeIdPSignIn(f.ctx(), "s3", bob.ID, idpClient)) // another account's sign-in: nothing
	f.wantIdPTokens(ann.ID, "s3", 1, "revoked as another account's")
	f.must(f.s.RevokeIdPSignIn(f.ctx(), "s3", ann.ID, idpClient))
	f.wantIdPTokens(ann.ID, "s3", 0, "after RevokeIdPSignIn")
	f.wantIdPTokens(bob.ID, "s4", 1, "another account's, after RevokeIdPSignIn")
	f.must(f.s.RevokeIdPSignIn(f.ctx(), "s4", "bob", idpClient))

	f.must(f.s.SetIdPPassword(f.ctx(), bob.ID, "$argon2id$new", f.clock.Now()))
	f.wantIdPTokens(bob.ID, "s4", 0, "after a new password")
}
