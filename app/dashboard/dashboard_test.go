package dashboard

import (
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"github.com/feedbackhq/feedback/shared/feedback"
)

// render mounts p in go-app's test engine and returns its HTML.
func render(t *testing.T, p app.Composer) string {
	t.Helper()
	e := app.NewTestEngine()
	if err := e.Load(p); err != nil {
		t.Fatal(err)
	}
	e.ConsumeAll()
	return app.HTMLString(p)
}

func TestNew(t *testing.T) {
	for _, tt := range []struct {
		path  string
		ok    bool
		slug  string
		route string // "" for a place that has no page
	}{
		{"/w/demo/", true, "demo", "overview"},
		{"/w/a-1/nowhere", true, "a-1", ""},
		{"/w/a-1/reviews/42/", true, "a-1", ""},
		{"/settings/security", true, "", "security"},
		{"/w/demo", false, "", ""},
		{"/w/Demo/", false, "", ""},
		{"/w/-x/", false, "", ""},
		{"/w/demo/x%22y", false, "", ""},
		{`/w/demo/"onmouseover=`, false, "", ""},
		{"/w/" + strings.Repeat("a", 64) + "/", false, "", ""},
		{"/settings/security/", true, "", ""},
		{"/settings", true, "", ""},
		{"/settings/tokens", true, "", ""},
		{"/settings/Tokens", false, "", ""},
		{"/settingsx", false, "", ""},
		{"/", false, "", ""},
	} {
		p, ok := New(tt.path)
		if ok != tt.ok || (ok && (p.slug != tt.slug || routeName(p.route) != tt.route)) {
			t.Errorf("New(%q) = %+v, %v; want slug %q route %q, %v", tt.path, p, ok, tt.slug, tt.route, tt.ok)
		}
	}
}

func routeName(r *route) string {
	if r == nil {
		return ""
	}
	return r.name
}

// TestPrerendered: the server's page is the loading shell, the same for
// every user, with nothing from the request in an attribute.
func TestPrerendered(t *testing.T) {
	p, _ := New("/w/demo/")
	html := render(t, p)
	for _, want := range []string{"Loading the dashboard", "<noscript>", `id="main"`, "Feedback"} {
		if !strings.Contains(html, want) {
			t.Errorf("the prerendered dashboard lacks %q:\n%s", want, html)
		}
	}
	if strings.Contains(html, "demo") {
		t.Errorf("the prerendered dashboard shows the path's slug:\n%s", html)
	}
}

func TestSignedOut(t *testing.T) {
	for path, want := range map[string]string{
		"/w/demo/":           `href="/auth/login?return_to=/w/demo/"`,
		"/w/demo/reviews":    `href="/auth/login?return_to=/w/demo/"`,
		"/settings/security": `href="/auth/login?return_to=/settings/security"`,
	} {
		p, _ := New(path)
		p.status, p.reason = signedOut, "You are signed out."
		html := render(t, p)
		if !strings.Contains(html, want) || !strings.Contains(html, ">Sign in</a>") || !strings.Contains(html, "You are signed out.") {
			t.Errorf("%s: the signed-out view lacks the sign-in link %s:\n%s", path, want, html)
		}
	}
}

func me() *feedback.Me {
	return &feedback.Me{ID: "u1", Email: "ann@example.com", Name: "Ann", Workspaces: []feedback.Membership{
		{WorkspaceID: "w1", Slug: "demo", Name: "Demo <Café>", Role: feedback.RoleAdmin},
		{WorkspaceID: "w2", Slug: "other", Name: "Other", Role: feedback.RoleViewer},
	}}
}

func TestOverview(t *testing.T) {
	p, _ := New("/w/demo/")
	p.status, p.me = ready, me()
	html := render(t, p)
	for _, want := range []string{
		"Demo &lt;Café&gt;", "ann@example.com", `href="/w/demo/"`, `aria-current="page"`, `href="/settings/security"`,
		`method="post"`, `action="/auth/logout"`, ">Sign out</button>", "Latest feedback", "Loading the feedback", "admin",
		`id="live-status"`, `aria-live="polite"`,
	} {
		if !strings.Contains(html, want) {
			t.Errorf("the overview lacks %q:\n%s", want, html)
		}
	}
}

func TestMissing(t *testing.T) {
	for path, want := range map[string]string{
		"/w/demo/nowhere":  `href="/w/demo/"`,
		"/settings/tokens": `href="/settings/security"`,
		"/settings":        `href="/settings/security"`,
	} {
		p, _ := New(path)
		if p.Found() {
			t.Errorf("%s: Found() = true; want a page that is not found", path)
		}
		p.status, p.me = ready, me()
		html := render(t, p)
		if !strings.Contains(html, "Page not found") || !strings.Contains(html, want) {
			t.Errorf("%s: the not-found page lacks its heading or the link %s:\n%s", path, want, html)
		}
	}
	if p, _ := New(SecurityPath); !p.Found() {
		t.Error("the security settings are not found")
	}
}

func TestNoAccess(t *testing.T) {
	p, _ := New("/w/nope/")
	p.status, p.me = ready, me()
	html := render(t, p)
	if !strings.Contains(html, "not a member of the workspace nope") || !strings.Contains(html, `href="/w/other/"`) {
		t.Errorf("a foreign workspace renders:\n%s", html)
	}
}

func TestSessions(t *testing.T) {
	shell, _ := New(SecurityPath)
	shell.status, shell.me, shell.lastSlug = ready, me(), "other"
	html := render(t, shell)
	if link := regexp.MustCompile(`<a [^>]*id="nav-security"[^>]*>`).FindString(html); !strings.Contains(html, "Other") || !strings.Contains(link, `aria-current="page"`) {
		t.Errorf("the security page's header does not name the workspace opened last or mark its link:\n%s", html)
	}
	at := feedback.NewTime(time.Date(2026, 3, 1, 9, 30, 0, 0, time.UTC))
	p := &securityPage{Shell: shell, sessions: sessionList{loaded: true, items: currentFirst([]feedback.Session{
		{ID: "s2", UserAgent: "Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1", IP: "203.0.113.9", CreatedAt: at, LastSeenAt: at},
		{ID: "s1", UserAgent: "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36", IP: "127.0.0.1", CreatedAt: at, LastSeenAt: at, Current: true},
	})}}
	html = render(t, p)
	for _, want := range []string{
		"<caption>Active sessions</caption>", `scope="col"`, `scope="row"`, "Chrome on Linux", "This device", "Safari on iPhone",
		"203.0.113.9", "1 Mar 2026", `aria-label="Revoke the session of Safari on iPhone, 203.0.113.9"`,
	} {
		if !strings.Contains(html, want) {
			t.Errorf("the sessions page lacks %q:\n%s", want, html)
		}
	}
	if i, j := strings.Index(html, "Chrome on Linux"), strings.Index(html, "Safari on iPhone"); i > j {
		t.Error("this device's session is not listed first")
	}
	if n := strings.Count(html, ">Revoke</button>"); n != 2 {
		t.Errorf("%d Revoke buttons, want 2", n)
	}
}

func TestDeviceName(t *testing.T) {
	for ua, want := range map[string]string{
		"Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36 Edg/126.0.0.0": "Edge on Windows",
		"Mozilla/5.0 (Macintosh; Intel Mac OS X 14_5) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Safari/605.1.15":            "Safari on macOS",
		"Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0":                                                        "Firefox on Linux",
		"Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Mobile Safari/537.36":         "Chrome on Android",
		"Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/156.0.0.0 Safari/537.36":                 "Headless Chrome on Linux",
		"curl/8.5.0":                             "curl",
		"":                                       "Unknown device",
		"SomeBot/1.0 " + strings.Repeat("x", 80): "SomeBot/1.0 " + strings.Repeat("x", 47) + "…",
	} {
		if got := deviceName(ua); got != want {
			t.Errorf("deviceName(%q) = %q, want %q", ua, got, want)
		}
	}
}

func TestProblemOf(t *testing.T) {
	for _, tt := range []struct {
		status int
		body   string
		want   string
	}{
		{403, `{"code":"forbidden","detail":"Cross-origin requests cannot use a dashboard session.","request_id":"r1"}`,
			"Cross-origin requests cannot use a dashboard session. (Request ID r1)"},
		{502, `<html>bad gateway</html>`, "The service had a problem (error 502). Try again in a moment."},
		{404, ``, "This no longer exists."},
	} {
		if got := problemOf(tt.status, []byte(tt.body)).Error(); got != tt.want {
			t.Errorf("problemOf(%d, %s) = %q, want %q", tt.status, tt.body, got, tt.want)
		}
	}
}

// TestErrors: a failed request is said in words, in an alert, with a way
// to try again.
func TestErrors(t *testing.T) {
	p, _ := New("/w/demo/")
	p.status, p.problem = failed, errUnreachable.Error()
	html := render(t, p)
	for _, want := range []string{`role="alert"`, "The service cannot be reached", ">Try again</button>"} {
		if !strings.Contains(html, want) {
			t.Errorf("a failed load lacks %q:\n%s", want, html)
		}
	}

	p, _ = New(SecurityPath)
	p.status, p.me = ready, me()
	sec := &securityPage{Shell: p}
	sec.sessions.problem = "The sessions could not be loaded: " + problemOf(500, nil).Error()
	html = render(t, sec)
	for _, want := range []string{`role="alert"`, "could not be loaded: The service had a problem (error 500)", ">Reload the sessions</button>"} {
		if !strings.Contains(html, want) {
			t.Errorf("a failed list lacks %q:\n%s", want, html)
		}
	}
	if strings.Contains(html, "<table") {
		t.Error("a list that never loaded renders a table")
	}
}
