// Package web serves the pages of people who manage feedback: signing in
// and out through the OpenID provider (/auth/login, /auth/callback,
// /auth/logout, /auth/signed-out) and accepting an invitation to a
// workspace (/auth/invite/{code}).
//
// Its handlers return errors like every other handler, and they are
// answered as sign-in pages with a readable message and a way on; what
// went wrong underneath goes to the log only.
package web

import (
	"log/slog"
	"net/http"
	"time"

	"github.com/go-chi/chi/v5"

	"github.com/feedbackhq/feedback/server"
	"github.com/feedbackhq/feedback/server/auth"
	"github.com/feedbackhq/feedback/server/http/audit"
	"github.com/feedbackhq/feedback/server/http/response"
	"github.com/feedbackhq/feedback/server/secret"
)

// Config configures a [Server].
type Config struct {
	Store   server.Store
	Keyring *secret.Keyring
	// RP is the relying party of sign-in; nil when sign-in is not
	// configured, and the pages say so.
	RP *auth.RP
	// Sessions starts, authenticates and ends dashboard sessions.
	Sessions *auth.Sessions
	// CrossOrigin refuses a sign-out posted from another site.
	CrossOrigin *http.CrossOriginProtection
	Logger      *slog.Logger
	Now         func() time.Time
}

// Server holds the dependencies of the pages.
type Server struct {
	store    server.Store
	keys     *secret.Keyring
	rp       *auth.RP
	sessions *auth.Sessions
	cop      *http.CrossOriginProtection
	log      *slog.Logger
	now      func() time.Time
	audit    *audit.Log
	errs     *response.Errors // sign-in pages
}

// New returns a Server for cfg; every field but RP is required.
func New(cfg Config) *Server {
	s := &Server{store: cfg.Store, keys: cfg.Keyring, rp: cfg.RP, sessions: cfg.Sessions, cop: cfg.CrossOrigin,
		log: cfg.Logger, now: cfg.Now, audit: &audit.Log{Store: cfg.Store, Log: cfg.Logger}}
	s.errs = &response.Errors{Log: cfg.Logger, Page: s.errorPage}
	return s
}

// AuthRoutes returns the router of the sign-in pages, to mount at /auth.
// Unknown paths and methods are answered by the router it is mounted in.
func (s *Server) AuthRoutes() chi.Router {
	r := chi.NewRouter()
	r.Get("/login", s.errs.Handle(s.handleSignIn))
	r.Get("/callback", s.errs.Handle(s.handleCallback))
	r.Post("/logout", s.errs.Handle(s.handleSignOut))
	r.Get("/signed-out", s.errs.Handle(s.handleSignedOut)) // signedOutPath
	r.Get("/invite/{code}", s.errs.Handle(s.handleInviteAccept))
	return r
}
