package e2e_test

import (
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/pquerna/otp/totp"
)

// demoEmail is the demo account of the embedded provider (feedbackd
// demo), whose password the server's seed read: the installation's first
// user to sign in, and so its platform owner.
const demoEmail = "admin@demo.example"

const accountNewPassword = "a much longer new secret"

// TestAccount walks Settings > Account as a person would, with the
// embedded provider: change the password, sign out, find the old
// password refused and the new one accepted; set up an authenticator
// app from the key the page shows, sign in with a code, and remove the
// app again. It checks the page with axe-core at both sizes, with the
// set-up open too, and saves their screenshots.
func TestAccount(t *testing.T) {
	needBrowser(t)
	axe := axeScript(t)
	t.Parallel()
	s := startServer(t)
	if s.password == "" {
		t.Fatal("feedbackd demo printed no password")
	}
	b := newBrowser(t)
	b.do(chromedp.EmulateViewport(1280, 800))
	b.do(chromedp.Navigate(s.base + "/auth/login?return_to=/settings/account"))
	embeddedLogin(b, demoEmail, s.password)
	b.waitFor("the Account page", `document.getElementById("password-form")`, 60*time.Second)
	b.waitText("You are signed in as "+demoEmail, 5*time.Second)
	pageShots(t, b, axe, "account", "")

	b.do(chromedp.Click(chromedp.ID("password-change")))
	b.waitFor("the error at the current password", `document.getElementById("current_password-error")`, 5*time.Second)
	b.do(chromedp.SendKeys(chromedp.ID("current_password"), s.password),
		chromedp.SendKeys(chromedp.ID("new_password"), accountNewPassword),
		chromedp.SendKeys(chromedp.ID("confirm_password"), accountNewPassword),
		chromedp.Click(chromedp.ID("password-change")))
	b.waitText("Your password is changed.", 30*time.Second)
	signOutOf(b)

	b.do(chromedp.Navigate(s.base + "/auth/login?return_to=/settings/account"))
	embeddedLogin(b, demoEmail, s.password)
	b.waitText("Wrong email or password.", 30*time.Second)
	b.do(chromedp.Evaluate[chromedp.Void](`document.getElementById("password").value = ""`))
	embeddedLogin(b, demoEmail, accountNewPassword)
	b.waitFor("the Account page with the new password", `document.getElementById("totp-begin")`, 60*time.Second)

	secret := setUpTOTP(t, b, axe)
	signOutOf(b)
	b.do(chromedp.Navigate(s.base + "/auth/login?return_to=/settings/account"))
	embeddedLogin(b, demoEmail, accountNewPassword)
	b.waitFor("the provider asking for a code", `document.getElementById("code")`, 30*time.Second)
	// The confirmation spent the current time step: the next one's code
	// is accepted (one step of drift either way).
	b.do(chromedp.SendKeys(chromedp.ID("code"), totpAt(t, secret, time.Now().Add(30*time.Second))),
		chromedp.Click(chromedp.CSS(`form button[type=submit]`)))
	b.waitFor("the Account page after the code", `document.getElementById("totp-remove")`, 60*time.Second)

	b.do(chromedp.Click(chromedp.ID("totp-remove")))
	b.waitFor("the question", `document.activeElement?.id === "totp-remove-q"`, 5*time.Second)
	b.do(chromedp.SendKeys(chromedp.ID("password"), accountNewPassword), chromedp.Click(chromedp.ID("totp-remove-yes")))
	b.waitText("Two-step verification is off", 30*time.Second)
	b.waitFor("the set-up button again", `document.getElementById("totp-begin")`, 5*time.Second)
	revokeThisDevice(b)
}

// revokeThisDevice revokes the session of this device on Settings >
// Security, which asks first: Cancel keeps it, the second time the
// answer signs out.
func revokeThisDevice(b *browser) {
	b.t.Helper()
	const current = `#sessions tbody tr.current button.revoke`
	b.do(chromedp.Click(chromedp.ID("nav-security")))
	b.waitFor("this device's session", `document.querySelector("`+current+`")`, 30*time.Second)
	b.do(chromedp.Click(chromedp.CSS(current)))
	b.waitFor("the question", `document.activeElement?.id === "confirm-signout-q"`, 5*time.Second)
	b.do(chromedp.Click(chromedp.ID("confirm-signout-no")))
	b.waitFor("the session kept", `!document.getElementById("confirm-signout") && document.querySelector("`+current+`")`, 5*time.Second)
	b.do(chromedp.Click(chromedp.CSS(current)))
	b.waitFor("the question again", `document.getElementById("confirm-signout-yes")`, 5*time.Second)
	b.do(chromedp.Click(chromedp.ID("confirm-signout-yes")))
	b.waitText("You revoked the session of this device, so you are signed out here.", 30*time.Second)
}

// setUpTOTP sets up an authenticator app on the Account page, reading
// its key from the page, and returns the key.
func setUpTOTP(t *testing.T, b *browser, axe string) string {
	t.Helper()
	b.do(chromedp.Click(chromedp.ID("totp-begin")))
	b.waitFor("the key and its QR code", `document.getElementById("totp-qr")?.complete && `+
		`document.getElementById("totp-qr").naturalWidth > 0 && document.getElementById("totp-secret")`, 30*time.Second)
	if alt := eval[string](b, `document.getElementById("totp-qr").alt`); !strings.Contains(alt, "QR code") {
		t.Errorf("the QR code's alt text is %q", alt)
	}
	pageShots(t, b, axe, "account-totp", "totp")
	secret := strings.ReplaceAll(eval[string](b, `document.getElementById("totp-secret").textContent`), " ", "")
	b.do(chromedp.SendKeys(chromedp.ID("code"), "000000"), chromedp.Click(chromedp.ID("totp-confirm")))
	if totpAt(t, secret, time.Now()) != "000000" {
		b.waitFor("the wrong code refused at its field", `document.getElementById("code-error")`, 30*time.Second)
	}
	b.do(chromedp.Evaluate[chromedp.Void](`document.getElementById("code").value = ""`),
		chromedp.SendKeys(chromedp.ID("code"), totpAt(t, secret, time.Now())), chromedp.Click(chromedp.ID("totp-confirm")))
	b.waitText("Two-step verification is on", 30*time.Second)
	return secret
}

// totpAt returns the code of secret at when.
func totpAt(t *testing.T, secret string, when time.Time) string {
	t.Helper()
	code, err := totp.GenerateCode(secret, when)
	if err != nil {
		t.Fatalf("TOTP code of the key %q the page showed: %v", secret, err)
	}
	return code
}

// signOutOf signs out with the dashboard's button.
func signOutOf(b *browser) {
	b.t.Helper()
	b.do(chromedp.Click(chromedp.ID("sign-out")))
	b.waitFor("the signed-out page", `location.pathname === "/auth/signed-out"`, 30*time.Second)
}
