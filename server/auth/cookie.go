package auth

import (
	"encoding/base64"
	"encoding/json"
	"net/http"
	"time"

	"github.com/feedbackhq/feedback/server/secret"
)

// Lifetimes of the sign-in cookies.
const (
	AccessTTL  = time.Hour           // the access cookie, renewed from the refresh cookie
	RefreshTTL = 30 * 24 * time.Hour // the refresh cookie, from sign-in; logout revokes it
	LoginTTL   = 10 * time.Minute    // a sign-in in progress
	// Grace is how long a rotated-out refresh value is taken for a
	// concurrent renewal rather than a stolen cookie.
	Grace = 30 * time.Second
)

// Cookie names. __Host- makes browsers insist on Secure, Path=/ and no
// Domain, so no sibling host can set or read them.
const (
	AccessCookie  = "__Host-fb_access"
	RefreshCookie = "__Host-fb_refresh"
	LoginCookie   = "__Host-fb_login"
)

// Value prefixes of the cookies' random values.
const (
	accessPrefix  = "fba_"
	refreshPrefix = "fbr_"
)

// setCookie sets a Strict session cookie that lasts ttl.
func setCookie(w http.ResponseWriter, name, value string, ttl time.Duration, site http.SameSite) {
	http.SetCookie(w, &http.Cookie{Name: name, Value: value, Path: "/", MaxAge: int(ttl / time.Second),
		Secure: true, HttpOnly: true, SameSite: site})
}

// clearCookie removes a cookie.
func clearCookie(w http.ResponseWriter, name string, site http.SameSite) {
	http.SetCookie(w, &http.Cookie{Name: name, Value: "", Path: "/", MaxAge: -1, Secure: true, HttpOnly: true, SameSite: site})
}

// loginAAD binds a sealed login cookie to its purpose.
var loginAAD = []byte("login-cookie")

// SetLogin keeps l in a Lax cookie, sealed so that the browser can
// neither read the PKCE verifier nor forge the state. Lax, because the
// callback is a cross-site navigation from the provider.
func SetLogin(w http.ResponseWriter, keys *secret.Keyring, l *Login) error {
	b, err := json.Marshal(l)
	if err != nil {
		return err
	}
	setCookie(w, LoginCookie, base64.RawURLEncoding.EncodeToString(keys.Seal(b, loginAAD)), LoginTTL, http.SameSiteLaxMode)
	return nil
}

// TakeLogin reads and clears the login cookie; nil when it is missing or
// cannot be opened.
func TakeLogin(w http.ResponseWriter, r *http.Request, keys *secret.Keyring) *Login {
	clearCookie(w, LoginCookie, http.SameSiteLaxMode)
	c, err := r.Cookie(LoginCookie)
	if err != nil {
		return nil
	}
	sealed, err := base64.RawURLEncoding.DecodeString(c.Value)
	if err != nil {
		return nil
	}
	b, err := keys.Open(sealed, loginAAD)
	if err != nil {
		return nil
	}
	var l Login
	if json.Unmarshal(b, &l) != nil {
		return nil
	}
	return &l
}

// newValue returns a new cookie value with prefix and its hash.
func newValue(prefix string) (string, []byte) { return secret.NewToken(prefix) }
