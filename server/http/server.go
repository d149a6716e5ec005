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
	"github.com/feedbackhq/feedback/server/http/audit"
	"github.com/feedbackhq/feedback/server/http/ratelimit"
	"github.com/feedbackhq/feedback/server/http/response"
	"github.com/feedbackhq/feedback/server/inmem"
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
	// WebDir is the directory holding the WebAssembly build (app.wasm and
	// its .br and .gz); without one the pages work without the wasm.
	WebDir string
	// OIDC configures dashboard sign-in; without an issuer the sign-in
	// pages answer that sign-in is not configured.
	OIDC auth.Config
	// IdP is the embedded OpenID provider, served under /idp; nil when an
	// external provider is configured.
	IdP    http.Handler
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

// Server holds the dependencies of the handlers.
type Server struct {
	cfg      Config
	store    server.Store
	keys     *secret.Keyring
	log      *slog.Logger
	now      func() time.Time
	errs     *response.Errors   // answers as problems
	local    *ratelimit.Limiter // anonymous budgets, in process
	anon     ratelimit.Anonymous
	limits   VisitorLimits
	posters  *workspace.PosterKeys
	audit    *audit.Log
	api      *api.Server
	web      *web.Server
	device   *device.Server
	wasm     wasmBuild
	goapp    *app.Handler
	policy   webhook.Policy
	rp       *auth.RP // nil when sign-in is not configured
	sessions *auth.Sessions
	cop      *http.CrossOriginProtection
}

// New returns a Server for cfg.
func New(cfg Config) *Server {
	s := &Server{cfg: cfg, store: cfg.Store, keys: cfg.Keyring, log: cfg.Logger, now: cfg.Now}
	if s.log == nil {
		s.log = slog.Default()
	}
	if s.now == nil {
		s.now = time.Now
	}
	if s.cfg.RateLimit <= 0 {
		s.cfg.RateLimit = 1000
	}
	s.limits = cfg.VisitorLimits.withDefaults()
	s.errs = &response.Errors{Log: s.log}
	s.local = ratelimit.New(inmem.NewLimiter(s.now), s.now)
	s.anon = ratelimit.Anonymous{Limiter: s.local, PerIP: s.limits.APIPerIP}
	s.posters = workspace.NewPosterKeys(cfg.Store, cfg.Keyring)
	s.policy = webhook.Policy{Allow: cfg.WebhookAllow, Resolver: cfg.WebhookResolver}
	if cfg.OIDC.Enabled() {
		s.rp = auth.NewRP(cfg.OIDC)
	}
	s.sessions = &auth.Sessions{Store: cfg.Store, Now: s.now, RP: s.rp, Keys: cfg.Keyring, Log: s.log}
	s.cop = http.NewCrossOriginProtection()
	s.audit = &audit.Log{Store: cfg.Store, Log: s.log}
	s.api = api.New(api.Config{Store: cfg.Store, Keyring: cfg.Keyring, Posters: s.posters, BaseURL: cfg.BaseURL,
		RateLimit: s.cfg.RateLimit, Anonymous: s.anon, Webhooks: s.policy, Sessions: s.sessions, CrossOrigin: s.cop,
		Logger: s.log, Now: s.now})
	s.device = device.New(device.Config{Store: cfg.Store, Posters: s.posters, Local: s.local, Anonymous: s.anon,
		Limits: device.Limits{PerIP: s.limits.PerIP, PerPoster: s.limits.PerPoster, PerKiosk: s.limits.PerKiosk},
		Pages:  visitorPages{s}, Logger: s.log, Now: s.now})
	s.web = web.New(web.Config{Store: cfg.Store, Keyring: cfg.Keyring, RP: s.rp, Sessions: s.sessions, CrossOrigin: s.cop,
		Logger: s.log, Now: s.now})
	s.wasm = loadWasm(cfg.WebDir)
	pwa.Register()
	s.goapp = pwa.NewHandler(pwa.Config{Version: s.wasm.version, WasmSize: strconv.FormatInt(s.wasm.size, 10)})
	return s
}
