// Package device serves the people who give feedback, through their own
// phone or a kiosk: the visitor form of a poster's QR code (/q/{code}:
// the page, its submissions and the thanks) and the kiosk device
// protocol (/kiosk/pair, /kiosk/config, /kiosk/sync, /kiosk/heartbeat).
//
// Both end in the same ingest: a submission is validated against its
// form and stored idempotently by its id. The kiosk endpoints and the
// visitor's JSON posts answer problems; the visitor's pages and form
// posts answer pages in the visitor's language. Anonymous traffic is
// counted in process, per client IP, poster and kiosk.
package device

import (
	"log/slog"
	"time"

	"github.com/go-chi/chi/v5"

	"github.com/feedbackhq/feedback/server"
	"github.com/feedbackhq/feedback/server/http/ratelimit"
	"github.com/feedbackhq/feedback/server/http/response"
	"github.com/feedbackhq/feedback/server/workspace"
)

// Limits are the per-minute budgets of the devices' traffic.
type Limits struct {
	PerIP     int // submissions and page views per client IP
	PerPoster int // submissions per poster
	PerKiosk  int // kiosk requests per device
}

// Config configures a [Server].
type Config struct {
	Store   server.Store
	Posters *workspace.PosterKeys
	// Local counts the budgets of Limits, in process.
	Local  *ratelimit.Limiter
	Limits Limits
	// Anonymous counts refused credentials.
	Anonymous ratelimit.Anonymous
	Logger    *slog.Logger
	Now       func() time.Time
}

// Server holds the dependencies of the devices' handlers.
type Server struct {
	store   server.Store
	posters *workspace.PosterKeys
	local   *ratelimit.Limiter
	limits  Limits
	anon    ratelimit.Anonymous
	log     *slog.Logger
	now     func() time.Time
	errs    *response.Errors // problems
	pages   *response.Errors // visitor pages
	targets targets          // the submit path's resolved posters
}

// New returns a Server for cfg; every field is required.
func New(cfg Config) *Server {
	s := &Server{store: cfg.Store, posters: cfg.Posters, local: cfg.Local, limits: cfg.Limits, anon: cfg.Anonymous,
		log: cfg.Logger, now: cfg.Now}
	s.errs = &response.Errors{Log: cfg.Logger}
	s.pages = &response.Errors{Log: cfg.Logger, Page: s.errorPage}
	return s
}

// KioskRoutes returns the router of the kiosk device protocol, to mount
// at /kiosk. Unknown paths and methods are answered by the router it is
// mounted in.
func (s *Server) KioskRoutes() chi.Router {
	r := chi.NewRouter()
	r.Post("/pair", s.errs.Handle(s.handleKioskPair))
	r.Group(func(r chi.Router) {
		r.Use(s.requireKiosk)
		r.Get("/config", s.errs.Handle(s.handleKioskConfig))
		r.Post("/sync", s.errs.Handle(s.handleKioskSync))
		r.Post("/heartbeat", s.errs.Handle(s.handleKioskHeartbeat))
	})
	return r
}

// VisitorRoutes returns the router of the visitor's form, to mount at
// /q. Unknown paths and methods are answered by the router it is mounted
// in.
func (s *Server) VisitorRoutes() chi.Router {
	r := chi.NewRouter()
	r.Get("/{code}", s.pages.Handle(s.handleVisitorForm))
	r.Post("/{code}", s.handleVisitorSubmit())
	r.Get("/{code}/thanks", s.pages.Handle(s.handleVisitorThanks))
	return r
}
