package idp

import (
	"bytes"
	"embed"
	"html/template"
	"net/http"
	"strconv"
	"strings"
	"time"
)

// Paths of the pages, under the issuer's.
const (
	loginPath     = "/login"
	loginParam    = "authRequestID" // the sign-in a login page belongs to
	passwordPath  = "/password"
	signedOutPath = "/signed-out"
	stylePath     = "/idp.css"
	callbackPath  = "/authorize/callback" // op's, where a finished sign-in continues
	discoveryPath = "/.well-known/openid-configuration"
)

// maxForm caps the body of a page's form.
const maxForm = 16 << 10

//go:embed templates
var files embed.FS

var pages = template.Must(template.ParseFS(files, "templates/*.html"))

// pageData is what the templates show. None of it comes from the request
// but what the person typed, and that is shown only as text.
type pageData struct {
	Title  string
	Error  string   // shown as an alert
	Lines  []string // the paragraphs of a message page
	Style  string
	Email  string // the password page's account
	Secret string // the enrolment page's TOTP key
	OTPURL string
	Ticket string // the enrolment in progress (server-made)
	Back   string // a message page's link back to the login page

	// Federations are the login page's "Sign in with" buttons.
	Federations []federationButton

	MFARequired bool
}

// render writes the template name as a page with status.
func (p *Provider) render(w http.ResponseWriter, status int, name string, d pageData) {
	d.Style = p.prefix + stylePath
	var buf bytes.Buffer
	if err := pages.ExecuteTemplate(&buf, name, d); err != nil {
		p.log.Error("idp: page", "template", name, "err", err)
		http.Error(w, "The page could not be shown.", http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.WriteHeader(status)
	_, _ = buf.WriteTo(w)
}

// message writes a page of a title and paragraphs.
func (p *Provider) message(w http.ResponseWriter, status int, title string, lines ...string) {
	p.render(w, status, "message", pageData{Title: title, Lines: lines})
}

// crossOrigin writes the page of a form that another site posted, or
// that a browser posted to an origin other than the one it shows (the
// service's base URL does not match the address in the browser).
func (p *Provider) crossOrigin(w http.ResponseWriter, r *http.Request) {
	p.log.InfoContext(r.Context(), "idp: a cross-origin form post was refused", "path", r.URL.Path,
		"origin", r.Header.Get("Origin"), "sec_fetch_site", r.Header.Get("Sec-Fetch-Site"))
	p.message(w, http.StatusForbidden, "Sign-in refused",
		"This form was sent from another site, so it was refused.",
		"Go back to the application and sign in again from there.")
}

// internalError logs err and writes a page that says nothing of it.
func (p *Provider) internalError(w http.ResponseWriter, r *http.Request, err error) {
	p.log.ErrorContext(r.Context(), "idp", "path", r.URL.Path, "err", err)
	p.message(w, http.StatusInternalServerError, "Something went wrong",
		"Signing in failed on our side. Try again in a moment.")
}

// tooMany writes the page of a throttled attempt.
func (p *Provider) tooMany(w http.ResponseWriter, wait time.Duration) {
	minutes := int((wait + time.Minute - 1) / time.Minute)
	w.Header().Set("Retry-After", strconv.Itoa(int((wait+time.Second-1)/time.Second)))
	unit := "minutes"
	if minutes == 1 {
		unit = "minute"
	}
	p.message(w, http.StatusTooManyRequests, "Too many attempts",
		"There were too many failed attempts to sign in with this email address or from this network.",
		"Wait "+strconv.Itoa(minutes)+" "+unit+", then try again.")
}

// pageHeaders makes the pages uncacheable, unframeable and without
// scripts, and keeps their URLs (which hold sign-in ids and link tokens)
// out of Referer headers.
func pageHeaders(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h := w.Header()
		h.Set("Cache-Control", "no-store")
		h.Set("Content-Security-Policy", "default-src 'none'; style-src 'self'; base-uri 'none'; frame-ancestors 'none'")
		h.Set("Referrer-Policy", "no-referrer")
		h.Set("X-Content-Type-Options", "nosniff")
		h.Set("X-Frame-Options", "DENY")
		next.ServeHTTP(w, r)
	})
}

// serveStyle handles "GET /idp.css".
func serveStyle(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Cache-Control", "public, max-age=3600")
	http.ServeFileFS(w, r, files, "templates/idp.css")
}

// routes returns the provider's handler: the pages, its federators'
// routes, and op's endpoints for every other path, under the issuer's
// path.
func (p *Provider) routes(o http.Handler) http.Handler {
	pg := http.NewServeMux()
	pg.HandleFunc("GET "+loginPath, p.handleLoginPage)
	pg.HandleFunc("POST "+loginPath, p.handleLogin)
	pg.HandleFunc("GET "+passwordPath, p.handlePasswordPage)
	pg.HandleFunc("POST "+passwordPath, p.handlePassword)
	pg.HandleFunc("GET "+signedOutPath, p.handleSignedOut)
	pg.HandleFunc("GET "+stylePath, serveStyle)
	cop := http.NewCrossOriginProtection()
	cop.SetDenyHandler(http.HandlerFunc(p.crossOrigin))
	pages := pageHeaders(cop.Handler(pg))
	mux := http.NewServeMux()
	for _, path := range []string{loginPath, passwordPath, signedOutPath, stylePath} {
		mux.Handle(path, pages)
	}
	for _, fr := range p.federators {
		for _, rt := range fr.Routes() {
			handleRoute(mux, pg, pages, rt)
		}
	}
	mux.Handle("GET "+discoveryPath, discovery(o))
	mux.Handle("/", o)
	return http.StripPrefix(p.prefix, mux)
}

// handleRoute serves a federator's route rt on mux: a page among the
// pages of pg, which pages serves; a page that other sites post to with
// the pages' headers only; any other directly.
func handleRoute(mux, pg *http.ServeMux, pages http.Handler, rt Route) {
	switch {
	case rt.Page && !rt.CrossSite:
		pg.Handle(rt.Pattern, rt.Handler)
		mux.Handle(patternPath(rt.Pattern), pages)
	case rt.Page:
		mux.Handle(rt.Pattern, pageHeaders(rt.Handler))
	default:
		mux.Handle(rt.Pattern, rt.Handler)
	}
}

// patternPath returns the path of a ServeMux pattern "METHOD /path".
func patternPath(pattern string) string {
	_, path, _ := strings.Cut(pattern, " ")
	return path
}

// handleSignedOut handles "GET /signed-out", where a logout without a
// registered post_logout_redirect_uri ends.
func (p *Provider) handleSignedOut(w http.ResponseWriter, _ *http.Request) {
	p.message(w, http.StatusOK, "Signed out", "You have signed out. You can close this page.")
}
