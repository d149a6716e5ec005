package idp

import (
	"context"
	"crypto/rand"
	"crypto/subtle"
	"encoding/base32"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/pquerna/otp"
	"github.com/pquerna/otp/totp"

	"github.com/feedbackhq/feedback/server"
)

// TOTP as authenticator apps expect it (RFC 6238): SHA-1, 6 digits, 30 s.
const (
	totpIssuer = "Feedback"
	totpPeriod = 30
)

var totpOpts = totp.ValidateOpts{Period: totpPeriod, Digits: otp.DigitsSix, Algorithm: otp.AlgorithmSHA1}

// totpAAD binds a sealed TOTP secret to its account.
func totpAAD(accountID string) []byte { return []byte("idp:totp:" + accountID) }

// newTOTPSecret returns a new secret of 160 bits in base32, unpadded.
func newTOTPSecret() string {
	b := make([]byte, 20)
	_, _ = rand.Read(b) // never fails (Go >= 1.24)
	return base32.StdEncoding.WithPadding(base32.NoPadding).EncodeToString(b)
}

// keyURI returns the Key URI that authenticator apps read.
func keyURI(email, secret string) string {
	q := url.Values{"secret": {secret}, "issuer": {totpIssuer}, "algorithm": {"SHA1"},
		"digits": {"6"}, "period": {strconv.Itoa(totpPeriod)}}
	u := url.URL{Scheme: "otpauth", Host: "totp", Path: "/" + totpIssuer + ":" + email, RawQuery: q.Encode()}
	return u.String()
}

// matchTOTP returns the time step at which code is secret's, within one
// step of now either way (clock drift), or false.
func matchTOTP(secret, code string, now time.Time) (int64, bool) {
	code = strings.Join(strings.Fields(code), "")
	if len(code) != 6 {
		return 0, false
	}
	step := now.Unix() / totpPeriod
	for _, s := range []int64{step, step - 1, step + 1} {
		want, err := totp.GenerateCodeCustom(secret, time.Unix(s*totpPeriod, 0), totpOpts)
		if err == nil && subtle.ConstantTimeCompare([]byte(want), []byte(code)) == 1 {
			return s, true
		}
	}
	return 0, false
}

// useTOTP reports whether code is the account's current code, and spends
// its time step: a code is accepted once.
func (p *Provider) useTOTP(ctx context.Context, a *server.IdPAccount, code string) (_ bool, err error) {
	defer wrap(&err, "useTOTP")
	secret, err := p.cfg.Keys.Open(a.TOTPSecret, totpAAD(a.ID))
	if err != nil {
		return false, err
	}
	step, ok := matchTOTP(string(secret), code, p.now())
	if !ok {
		return false, nil
	}
	return p.cfg.Store.UseIdPTOTPStep(ctx, a.ID, step)
}

// sealTOTP seals the TOTP secret of an account for the store.
func (p *Provider) sealTOTP(accountID, secret string) []byte {
	return p.cfg.Keys.Seal([]byte(secret), totpAAD(accountID))
}
