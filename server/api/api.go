// Package api serves the REST API, mounted at /api/v1 and /api: the
// workspace's records (hygiene, reviews, surveys, locations, posters
// with their QR codes and printable PDFs, webhooks, events, kiosks), and
// the signed-in user's account, sessions, tokens and members.
//
// Every request is authenticated, by an API token or a dashboard session,
// and counted against its workspace's rate limit; only the OpenAPI
// document (openapi.yaml, served as /openapi.json) is public. Every query
// is scoped by the workspace of the principal, so an id of another
// workspace is a 404.
package api

import (
	"log/slog"
	"net/http"
	"time"

	"github.com/go-chi/chi/v5"

	"github.com/feedbackhq/feedback/server"
	"github.com/feedbackhq/feedback/server/auth"
	"github.com/feedbackhq/feedback/server/http/audit"
	"github.com/feedbackhq/feedback/server/http/ratelimit"
	"github.com/feedbackhq/feedback/server/http/response"
	"github.com/feedbackhq/feedback/server/idp"
	"github.com/feedbackhq/feedback/server/live"
	"github.com/feedbackhq/feedback/server/secret"
	"github.com/feedbackhq/feedback/server/webhook"
	"github.com/feedbackhq/feedback/server/workspace"
)

// Config configures a [Server].
type Config struct {
	Store   server.Store
	Keyring *secret.Keyring
	Posters *workspace.PosterKeys
	// BaseURL is the public URL of the service, for poster and
	// invitation links.
	BaseURL string
	// RateLimit is the number of requests per minute per workspace.
	RateLimit int
	// Anonymous counts the requests no credential vouches for.
	Anonymous ratelimit.Anonymous
	// Webhooks decides where webhooks may lead.
	Webhooks webhook.Policy
	// Sessions authenticates dashboard sessions.
	Sessions *auth.Sessions
	// CrossOrigin refuses cross-origin requests made with a session.
	CrossOrigin *http.CrossOriginProtection
	// Federations keeps the embedded provider's identity federations;
	// nil (an external provider) answers their endpoints with 404.
	Federations Federations
	// Accounts is the embedded identity provider, which keeps the
	// passwords and TOTP secrets that users manage on the Account page;
	// nil when an external provider signs users in.
	Accounts *idp.Provider
	// Live fans events out to the live stream's sockets; nil answers
	// GET /live with 503.
	Live   *live.Hub
	Logger *slog.Logger
	Now    func() time.Time
}

// Server holds the dependencies of the API's handlers.
type Server struct {
	cfg      Config
	store    server.Store
	keys     *secret.Keyring
	log      *slog.Logger
	now      func() time.Time
	errs     *response.Errors // problems
	audit    *audit.Log
	posters  *workspace.PosterKeys
	anon     ratelimit.Anonymous
	policy   webhook.Policy
	sessions *auth.Sessions
	cop      *http.CrossOriginProtection
	feds     Federations // nil without the embedded provider
}

// New returns a Server for cfg; every field but BaseURL is required.
func New(cfg Config) *Server {
	return &Server{cfg: cfg, store: cfg.Store, keys: cfg.Keyring, log: cfg.Logger, now: cfg.Now,
		errs: &response.Errors{Log: cfg.Logger}, audit: &audit.Log{Store: cfg.Store, Log: cfg.Logger},
		posters: cfg.Posters, anon: cfg.Anonymous, policy: cfg.Webhooks, sessions: cfg.Sessions, cop: cfg.CrossOrigin,
		feds: cfg.Federations}
}

// Routes returns the API's router, to mount at /api/v1 and /api. Every
// request, unknown routes and methods included, is authenticated and
// counted first, so every answer carries the rate-limit headers; only the
// OpenAPI document is public (and counted per client IP). Unknown paths
// and methods are answered by the router it is mounted in.
func (s *Server) Routes() chi.Router {
	r := chi.NewRouter()
	r.Use(s.gate, s.rejectQueryOnWrites)
	r.Get("/openapi.json", s.handleOpenAPI)
	r.Group(func(r chi.Router) {
		s.registerHygieneRoutes(r)
		s.registerReviewRoutes(r)
		s.registerSurveyRoutes(r)
		s.registerLocationRoutes(r)
		s.registerPosterRoutes(r)
		s.registerWebhookRoutes(r)
		s.registerEventRoutes(r)
		s.registerKioskRoutes(r)
		s.registerSummaryRoutes(r)
		s.registerStatsRoutes(r)
		s.registerExportRoutes(r)
		s.registerLiveRoutes(r)
		s.registerAccountRoutes(r)
		s.registerAlertRoutes(r)
	})
	return r
}

// handle adapts h to an [http.HandlerFunc] that answers its error as a
// problem.
func (s *Server) handle(h response.HandlerFunc) http.HandlerFunc { return s.errs.Handle(h) }
