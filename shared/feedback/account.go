package feedback

// How a user signs in ([Account.SignIn]).
const (
	// SignInPassword is an account of the embedded identity provider with
	// a password, which the Account page changes, and optional TOTP.
	SignInPassword = "password"
	// SignInFederation is an account that the organisation's identity
	// provider, federated by the embedded one, signs in: it manages the
	// password and second factor.
	SignInFederation = "federation"
	// SignInExternal is a sign-in through an external OpenID provider
	// (--oidc-issuer), which manages everything.
	SignInExternal = "external"
)

// Account is the signed-in user's sign-in, as the Account page shows it
// (GET /account).
type Account struct {
	Email string `json:"email"`
	// SignIn is how the user signs in: SignInPassword, SignInFederation
	// or SignInExternal.
	SignIn string `json:"sign_in"`
	// Provider names the organisation's identity provider of a federated
	// account; "" otherwise.
	Provider string `json:"provider"`
	// TOTP reports whether an authenticator app is enrolled.
	TOTP bool `json:"totp"`
}

// PasswordChange is the body of POST /account/password.
type PasswordChange struct {
	CurrentPassword string `json:"current_password"`
	NewPassword     string `json:"new_password"`
}

// PasswordChanged answers POST /account/password: the user's other
// sessions, which the change ended.
type PasswordChanged struct {
	SessionsEnded int `json:"sessions_ended"`
}

// TOTPEnrolment answers POST /account/totp: the secret of an
// authenticator app to confirm within 15 minutes, as text, as the
// otpauth:// URI that apps read, and as a QR code of that URI (a data:
// URL of an SVG image).
type TOTPEnrolment struct {
	Secret     string `json:"secret"`
	OTPAuthURI string `json:"otpauth_uri"`
	QRCode     string `json:"qr_code"`
}

// TOTPCode is the body of POST /account/totp/confirm: the app's
// current code.
type TOTPCode struct {
	Code string `json:"code"`
}

// PasswordCheck is the body of DELETE /account/totp: the user's
// password.
type PasswordCheck struct {
	Password string `json:"password"`
}
