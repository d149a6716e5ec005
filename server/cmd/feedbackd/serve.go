package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"strings"
	"time"

	"github.com/feedbackhq/feedback/server/alerts"
	"github.com/feedbackhq/feedback/server/auth"
	feedbackhttp "github.com/feedbackhq/feedback/server/http"
	"github.com/feedbackhq/feedback/server/live"
	"github.com/feedbackhq/feedback/server/presence"
	"github.com/feedbackhq/feedback/server/rollup"
	"github.com/feedbackhq/feedback/server/webhook"
)

// serveFlags are the flags of the serve command.
type serveFlags struct {
	dbFlags
	addr, baseURL, logLevel   string
	debugAddr                 string
	webDir                    string
	webhookAllow, trustedNets string
	tlsProxy                  bool
	smtpURL, smtpFrom         string
	rateLimit                 int
	visitors                  feedbackhttp.VisitorLimits
	oidc                      auth.Config
}

func (m *Main) parseServe(args []string) (*serveFlags, error) {
	f := &serveFlags{}
	fs := m.newFlags("serve")
	f.define(fs, m.Getenv)
	if err := fs.Parse(args); err != nil {
		return nil, err
	}
	if fs.NArg() > 0 {
		return nil, fmt.Errorf("serve takes no arguments, got %q", fs.Args())
	}
	if f.rateLimit < 1 {
		return nil, fmt.Errorf("--rate-limit must be at least 1")
	}
	return f, checkBaseURL(f.baseURL, f.tlsProxy)
}

// define adds the flags of serve to fs, with their environment defaults.
func (f *serveFlags) define(fs *flag.FlagSet, getenv func(string) string) {
	f.register(fs, getenv)
	fs.StringVar(&f.addr, "addr", envOr(getenv, "FEEDBACK_ADDR", ":8080"), "listen address (env FEEDBACK_ADDR)")
	fs.StringVar(&f.baseURL, "base-url", getenv("FEEDBACK_BASE_URL"),
		"public URL used in poster links and sign-in: http:// only on loopback, https:// with --tls-proxy "+
			"(env FEEDBACK_BASE_URL; default http://localhost:PORT)")
	fs.BoolVar(&f.tlsProxy, "tls-proxy", strings.EqualFold(getenv("FEEDBACK_TLS_PROXY"), "true"),
		"a reverse proxy in front terminates TLS: the base URL is its https:// URL (env FEEDBACK_TLS_PROXY=true)")
	fs.IntVar(&f.rateLimit, "rate-limit", envInt(getenv, "FEEDBACK_RATE_LIMIT", 1000),
		"API requests per minute per workspace (env FEEDBACK_RATE_LIMIT)")
	fs.IntVar(&f.visitors.PerIP, "visitor-limit", envInt(getenv, "FEEDBACK_VISITOR_LIMIT", 120),
		"visitor page views and submissions per minute per client IP (env FEEDBACK_VISITOR_LIMIT)")
	fs.IntVar(&f.visitors.PerPoster, "poster-limit", envInt(getenv, "FEEDBACK_POSTER_LIMIT", 1200),
		"visitor submissions per minute per poster (env FEEDBACK_POSTER_LIMIT)")
	fs.StringVar(&f.webhookAllow, "webhook-allow", getenv("FEEDBACK_WEBHOOK_ALLOW"),
		"comma-separated CIDRs webhooks may reach over http or at private addresses (env FEEDBACK_WEBHOOK_ALLOW)")
	fs.StringVar(&f.trustedNets, "trusted-proxies", getenv("FEEDBACK_TRUSTED_PROXIES"),
		"comma-separated CIDRs of proxies whose X-Forwarded-For is trusted (env FEEDBACK_TRUSTED_PROXIES)")
	fs.StringVar(&f.webDir, "web-dir", envOr(getenv, "FEEDBACK_WEB_DIR", "web"),
		"directory of the WebAssembly builds: app.wasm and dashboard.wasm with their .br and .gz (env FEEDBACK_WEB_DIR)")
	f.registerOIDC(fs, getenv)
	fs.StringVar(&f.smtpURL, "smtp-url", getenv("FEEDBACK_SMTP_URL"),
		"SMTP server of alert mails: smtp://[user:password@]host[:port] (STARTTLS when offered) or smtps://... (env FEEDBACK_SMTP_URL; no mails without it)")
	fs.StringVar(&f.smtpFrom, "smtp-from", getenv("FEEDBACK_SMTP_FROM"), "sender address of alert mails (env FEEDBACK_SMTP_FROM)")
	fs.StringVar(&f.debugAddr, "debug-addr", getenv("FEEDBACK_DEBUG_ADDR"),
		"serve Go's profiles at /debug/pprof/ on this private address, such as 127.0.0.1:6060 (env FEEDBACK_DEBUG_ADDR; off by default)")
	fs.StringVar(&f.logLevel, "log-level", envOr(getenv, "FEEDBACK_LOG_LEVEL", "info"), "debug, info, warn or error (env FEEDBACK_LOG_LEVEL)")
}

// serve runs the service until ctx is done, then shuts down gracefully.
func (m *Main) serve(ctx context.Context, args []string) error {
	f, err := m.parseServe(args)
	if err != nil {
		return err
	}
	cfg, err := m.serverConfig(ctx, f)
	if err != nil {
		return err
	}
	defer cfg.Store.Close()
	ln, err := net.Listen("tcp", f.addr)
	if err != nil {
		return err
	}
	if cfg.BaseURL == "" {
		cfg.BaseURL = "http://localhost:" + portOf(ln.Addr())
	}
	oidcRedirect(&cfg.OIDC, cfg.BaseURL)
	if err := useEmbeddedProvider(ctx, cfg); err != nil {
		return err
	}
	if err := serveDebug(ctx, f.debugAddr, cfg.Logger); err != nil {
		return fmt.Errorf("--debug-addr: %w", err)
	}
	defer presence.Start(ctx, cfg.Store, cfg.Logger)()
	mailer, err := f.mailer(cfg.BaseURL)
	if err != nil {
		return err
	}
	worker, stopAlerts := alerts.Start(ctx, cfg.Store, cfg.Logger, mailer)
	defer stopAlerts()
	cfg.Store.OnEvent(func(ws string, _ int64) { worker.Wake(ws) })
	roller, stopRollup := rollup.Start(ctx, cfg.Store, cfg.Logger)
	defer stopRollup()
	cfg.Store.OnEvent(func(ws string, _ int64) { roller.Wake(ws) })
	dispatcher := &webhook.Dispatcher{Queue: cfg.Store, Keys: cfg.Keyring, Log: cfg.Logger,
		Client: webhook.NewClient(webhook.Policy{Allow: cfg.WebhookAllow})}
	cfg.Store.OnDue(dispatcher.Wake) // only commits that create deliveries wake it
	dctx, stopDispatch := context.WithCancel(context.WithoutCancel(ctx))
	dispatched := make(chan struct{})
	go func() { defer close(dispatched); dispatcher.Run(dctx) }()
	defer func() { stopDispatch(); <-dispatched }() // finish the attempts in flight
	hub := &live.Hub{Source: cfg.Store, Log: cfg.Logger}
	cfg.Live = hub
	handler := feedbackhttp.New(*cfg).Handler()
	defer hub.Close() // after the server's shutdown: the sockets close with 1001
	stopRelay := relayEvents(dctx, cfg.Store, hub, worker, cfg.Logger)
	defer stopRelay()
	srv := &http.Server{Handler: handler, ReadHeaderTimeout: 10 * time.Second,
		ReadTimeout: 60 * time.Second, WriteTimeout: 60 * time.Second, IdleTimeout: 120 * time.Second}
	cfg.Logger.Info("feedbackd listening", "addr", ln.Addr().String(), "base_url", cfg.BaseURL, "db", redactDB(f.db))
	if m.Ready != nil {
		m.Ready <- ln.Addr().String()
	}
	errc := make(chan error, 1)
	go func() { errc <- srv.Serve(ln) }()
	select {
	case err := <-errc:
		return err
	case <-ctx.Done():
	}
	shutdown, cancel := context.WithTimeout(context.Background(), 15*time.Second)
	defer cancel()
	if err := srv.Shutdown(shutdown); err != nil && !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}

// mailer returns the mailer of the SMTP flags, nil without --smtp-url.
func (f *serveFlags) mailer(baseURL string) (*alerts.Mailer, error) {
	if f.smtpURL == "" {
		return nil, nil
	}
	u, err := alerts.ParseSMTPURL(f.smtpURL)
	if err != nil {
		return nil, fmt.Errorf("--smtp-url: %w", err)
	}
	if !alerts.ValidSender(f.smtpFrom) {
		return nil, fmt.Errorf("--smtp-from: %q is not an email address", f.smtpFrom)
	}
	return &alerts.Mailer{Server: u, From: f.smtpFrom, BaseURL: baseURL}, nil
}

// serverConfig opens the store and builds the HTTP configuration.
func (m *Main) serverConfig(ctx context.Context, f *serveFlags) (*feedbackhttp.Config, error) {
	allow, err := parsePrefixes(f.webhookAllow)
	if err != nil {
		return nil, fmt.Errorf("--webhook-allow: %w", err)
	}
	proxies, err := parsePrefixes(f.trustedNets)
	if err != nil {
		return nil, fmt.Errorf("--trusted-proxies: %w", err)
	}
	logger, err := newLogger(m.Stderr, f.logLevel)
	if err != nil {
		return nil, err
	}
	keys, err := f.keyring()
	if err != nil {
		return nil, err
	}
	store, err := f.open(ctx)
	if err != nil {
		return nil, err
	}
	return &feedbackhttp.Config{Store: store, Keyring: keys, BaseURL: strings.TrimRight(f.baseURL, "/"),
		RateLimit: f.rateLimit, VisitorLimits: f.visitors, WebhookAllow: allow, WebDir: f.webDir, TrustedProxies: proxies,
		OIDC: f.oidc, Logger: logger}, nil
}

func portOf(a net.Addr) string {
	_, port, _ := net.SplitHostPort(a.String())
	return port
}

// redactDB hides the password of a database URL for logging.
func redactDB(db string) string {
	if i := strings.Index(db, "://"); i >= 0 {
		if at := strings.LastIndex(db, "@"); at > i {
			if colon := strings.Index(db[i+3:at], ":"); colon >= 0 {
				return db[:i+3+colon] + ":xxxxx" + db[at:]
			}
		}
	}
	return db
}

func newLogger(w interface{ Write([]byte) (int, error) }, level string) (*slog.Logger, error) {
	var l slog.Level
	if err := l.UnmarshalText([]byte(level)); err != nil {
		return nil, fmt.Errorf("--log-level: %w", err)
	}
	return slog.New(slog.NewTextHandler(w, &slog.HandlerOptions{Level: l})), nil
}
