package http

import (
	"log/slog"
	"net/http"
	"net/netip"
	"strconv"
	"time"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"github.com/feedbackhq/feedback/app/pwa"
	"github.com/feedbackhq/feedback/server"
	"github.com/feedbackhq/feedback/server/api"
	"github.com/feedbackhq/feedback/server/auth"
	"github.com/feedbackhq/feedback/server/device"
	"github.com/feedbackhq/feedback/server/http/ratelimit"
	"github.com/feedbackhq/feedback/server/http/response"
	"github.com/feedbackhq/feedback/server/idp"
	"github.com/feedbackhq/feedback/server/inmem"
	"github.com/feedbackhq/feedback/server/live"
	"github.com/feedbackhq/feedback/server/secret"
	"github.com/feedbackhq/feedback/server/web"
	"github.com/feedbackhq/feedback/server/webhook"
	"github.com/feedbackhq/feedback/server/workspace"
)

// Config configures a [Server].
type Config struct {
	Store   server.Store
	Keyring *secret.Keyring
	// BaseURL is the public URL of the service, used in poster links,
	// for example https://feedback.example.com.
	BaseURL string
	// RateLimit is the number of API requests per minute per workspace.
	RateLimit int
	// VisitorLimits bound anonymous traffic; zero values take defaults.
	VisitorLimits VisitorLimits
	// WebhookAllow lists networks that webhooks may reach although they
	// are private or loopback, and over plain http.
	WebhookAllow []netip.Prefix
	// WebhookResolver resolves webhook hosts at subscription time; nil
	// means the system resolver. Tests replace it.
	WebhookResolver webhook.Resolver
	// TrustedProxies lists networks whose X-Forwarded-For is believed.
	TrustedProxies []netip.Prefix
	// WebDir is the directory holding the WebAssembly builds (app.wasm,
	// dashboard.wasm and their .br and .gz); without one the pages work
	// without the wasm.
	WebDir string
	// OIDC configures dashboard sign-in; without an issuer the sign-in
	// pages answer that sign-in is not configured.
	OIDC auth.Config
	// IdP is the embedded OpenID provider, served under /idp; nil when an
	// external provider is configured.
	IdP http.Handler
	// Federations keeps the embedded provider's identity federations,
	// for a platform owner's API; nil with an external provider.
	Federations api.Federations
	// Accounts is the embedded OpenID provider itself, whose accounts'
	// users change their password and TOTP on the Account page; nil when
	// an external provider is configured.
	Accounts *idp.Provider
	// Live is the live stream's hub; nil makes one. New sets the store's
	// OnEvent hook to wake it (feedbackd then also wakes it from other
	// instances).
	Live   *live.Hub
	Logger *slog.Logger
	// Now is the clock; nil means time.Now.
	Now func() time.Time
}

// VisitorLimits are the per-minute budgets of anonymous traffic, counted
// in process: they protect the service, not a shared quota.
type VisitorLimits struct {
	PerIP     int // submissions and page views per client IP
	PerPoster int // submissions per poster
	PerKiosk  int // kiosk requests per device
	APIPerIP  int // unauthenticated or failed API requests per client IP
}

func (l VisitorLimits) withDefaults() VisitorLimits {
	def := func(v *int, d int) {
		if *v <= 0 {
			*v = d
		}
	}
	def(&l.PerIP, 120)
	def(&l.PerPoster, 1200)
	def(&l.PerKiosk, 600)
	def(&l.APIPerIP, 300)
	return l
}

// Server is the service's HTTP server: the root router, its middleware,
// and the audiences' routers it mounts.
type Server struct {
	cfg      Config
	store    server.Store
	log      *slog.Logger
	errs     *response.Errors // answers as problems
	api      *api.Server
	device   *device.Server
	web      *web.Server
	wasm     wasmBuild    // app.wasm: the visitors' and kiosks' build
	dashWasm wasmBuild    // dashboard.wasm: the dashboard's build
	goapp    *app.Handler // go-app's resources and the app.js of app.wasm
	dashApp  *app.Handler // the app.js of dashboard.wasm
}

// New returns a Server for cfg.
func New(cfg Config) *Server {
	s := &Server{cfg: cfg, store: cfg.Store, log: cfg.Logger}
	if s.log == nil {
		s.log = slog.Default()
	}
	now := cfg.Now
	if now == nil {
		now = time.Now
	}
	if s.cfg.RateLimit <= 0 {
		s.cfg.RateLimit = 1000
	}
	s.errs = &response.Errors{Log: s.log}
	s.newAudiences(now)
	s.wasm, s.dashWasm = loadWasm(cfg.WebDir, "app.wasm"), loadWasm(cfg.WebDir, "dashboard.wasm")
	pwa.Register()
	s.goapp = pwa.NewHandler(pwa.Config{Version: s.wasm.version, WasmSize: strconv.FormatInt(s.wasm.size, 10)})
	s.dashApp = pwa.NewDashboardHandler(pwa.Config{Version: s.dashWasm.version, WasmSize: strconv.FormatInt(s.dashWasm.size, 10)})
	return s
}

// liveHub returns the configured hub, or a new one, and makes this
// process's commits wake it.
func (s *Server) liveHub() *live.Hub {
	h := s.cfg.Live
	if h == nil {
		h = &live.Hub{Source: s.cfg.Store, Log: s.log}
	}
	s.cfg.Store.OnEvent(func(workspaceID string, _ int64) { h.Wake(workspaceID) })
	return h
}

// newAudiences makes the servers of the API, the devices and the
// pages, with what they share: the poster keys, the in-process budgets,
// the dashboard sessions and the cross-origin check.
func (s *Server) newAudiences(now func() time.Time) {
	cfg := s.cfg
	limits := cfg.VisitorLimits.withDefaults()
	posters := workspace.NewPosterKeys(cfg.Store, cfg.Keyring)
	local := ratelimit.New(inmem.NewLimiter(now), now)
	anon := ratelimit.Anonymous{Limiter: local, PerIP: limits.APIPerIP}
	var rp *auth.RP // nil when sign-in is not configured
	if cfg.OIDC.Enabled() {
		rp = auth.NewRP(cfg.OIDC)
	}
	sessions := &auth.Sessions{Store: cfg.Store, Now: now, RP: rp, Keys: cfg.Keyring, Log: s.log}
	cop := http.NewCrossOriginProtection()
	s.api = api.New(api.Config{Store: cfg.Store, Keyring: cfg.Keyring, Posters: posters, BaseURL: cfg.BaseURL,
		RateLimit: cfg.RateLimit, Anonymous: anon, Sessions: sessions, Accounts: cfg.Accounts, CrossOrigin: cop, Live: s.liveHub(), Logger: s.log, Now: now,
		Federations: cfg.Federations,
		Webhooks:    webhook.Policy{Allow: cfg.WebhookAllow, Resolver: cfg.WebhookResolver}})
	s.device = device.New(device.Config{Store: cfg.Store, Posters: posters, Local: local, Anonymous: anon,
		Limits: device.Limits{PerIP: limits.PerIP, PerPoster: limits.PerPoster, PerKiosk: limits.PerKiosk},
		Logger: s.log, Now: now})
	s.web = web.New(web.Config{Store: cfg.Store, Keyring: cfg.Keyring, RP: rp, Sessions: sessions, CrossOrigin: cop,
		Logger: s.log, Now: now})
}
