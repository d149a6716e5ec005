package webhook

import (
	"bytes"
	"context"
	"errors"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"net/url"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"code.dny.dev/ssrf"
)

var loopback = []netip.Prefix{netip.MustParsePrefix("127.0.0.0/8")}

// post sends a small delivery to target with c.
func post(t *testing.T, c *http.Client, target string) (*http.Response, error) {
	t.Helper()
	req, err := http.NewRequestWithContext(context.Background(), http.MethodPost, target, strings.NewReader(`{}`))
	if err != nil {
		t.Fatal(err)
	}
	req.Header = Headers([][]byte{[]byte("0123456789abcdef0123456789abcdef")}, "msg_1", time.Now(), []byte(`{}`))
	return c.Do(req)
}

// mustRefuse posts to target with c and checks that the dialer refused
// it, with an error that names want.
func mustRefuse(t *testing.T, c *http.Client, target, want string) {
	t.Helper()
	res, err := post(t, c, target)
	if err == nil {
		res.Body.Close()
		t.Fatalf("%s was reached; want it refused", target)
	}
	if !errors.Is(err, ssrf.ErrProhibitedIP) || !strings.Contains(err.Error(), want) {
		t.Errorf("error = %v, want ssrf.ErrProhibitedIP naming %s", err, want)
	}
}

func TestClientRefusesLoopbackAtConnect(t *testing.T) {
	var reached atomic.Bool
	srv := httptest.NewServer(http.HandlerFunc(func(http.ResponseWriter, *http.Request) { reached.Store(true) }))
	defer srv.Close()

	mustRefuse(t, NewClient(Policy{}), srv.URL, "127.0.0.1 is not a permitted destination")
	if reached.Load() {
		t.Error("the handler ran")
	}
}

func TestClientReachesAllowedReceiver(t *testing.T) {
	headers := make(chan http.Header, 1)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		headers <- r.Header.Clone()
		io.WriteString(w, "ok")
	}))
	defer srv.Close()

	res, err := post(t, NewClient(Policy{Allow: loopback}), srv.URL)
	if err != nil {
		t.Fatal(err)
	}
	body, err := ReadLimited(res)
	if err != nil || res.StatusCode != 200 || string(body) != "ok" {
		t.Fatalf("answer = %d %q, %v; want 200 ok", res.StatusCode, body, err)
	}
	if got := <-headers; got.Get("User-Agent") != UserAgent || got.Get("Webhook-Id") != "msg_1" || got.Get("Webhook-Signature") == "" {
		t.Errorf("receiver got headers %v", got)
	}
}

func TestClientDoesNotFollowRedirects(t *testing.T) {
	var followed atomic.Bool
	mux := http.NewServeMux()
	mux.HandleFunc("/hook", func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, "/elsewhere", http.StatusFound)
	})
	mux.HandleFunc("/elsewhere", func(http.ResponseWriter, *http.Request) { followed.Store(true) })
	srv := httptest.NewServer(mux)
	defer srv.Close()

	res, err := post(t, NewClient(Policy{Allow: loopback}), srv.URL+"/hook")
	if err != nil {
		t.Fatal(err)
	}
	ReadLimited(res)
	if res.StatusCode != http.StatusFound || res.Header.Get("Location") != "/elsewhere" {
		t.Errorf("answer = %d Location %q, want the 302", res.StatusCode, res.Header.Get("Location"))
	}
	if followed.Load() {
		t.Error("the redirect was followed")
	}
}

// hangingServer answers with partial, if any, and then hangs until the
// client goes away or the test ends.
func hangingServer(t *testing.T, partial string) *httptest.Server {
	release := make(chan struct{})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if partial != "" {
			io.WriteString(w, partial)
			w.(http.Flusher).Flush()
		}
		select {
		case <-release:
		case <-r.Context().Done():
		}
	}))
	t.Cleanup(srv.Close)
	t.Cleanup(func() { close(release) }) // runs first
	return srv
}

func TestClientTimesOut(t *testing.T) {
	srv := hangingServer(t, "")
	c := NewClient(Policy{Allow: loopback})
	if c.Timeout != ClientTimeout {
		t.Errorf("Timeout = %v, want %v", c.Timeout, ClientTimeout)
	}
	c.Timeout = 200 * time.Millisecond
	start := time.Now()
	res, err := post(t, c, srv.URL)
	if err == nil {
		res.Body.Close()
		t.Fatal("a hanging receiver answered")
	}
	var ne net.Error
	if !errors.As(err, &ne) || !ne.Timeout() {
		t.Errorf("error = %v, want a timeout", err)
	}
	if d := time.Since(start); d > 2*time.Second {
		t.Errorf("gave up after %v, want about 200ms", d)
	}
}

func TestClientTimesOutReadingBody(t *testing.T) {
	srv := hangingServer(t, "partial")
	c := NewClient(Policy{Allow: loopback})
	c.Timeout = 200 * time.Millisecond
	res, err := post(t, c, srv.URL)
	if err != nil {
		t.Fatal(err)
	}
	body, err := ReadLimited(res)
	if err == nil || string(body) != "partial" {
		t.Errorf("ReadLimited = %q, %v; want the partial body and a timeout", body, err)
	}
}

func TestReadLimited(t *testing.T) {
	for _, tc := range []struct {
		name string
		size int
		want int
	}{
		{"empty", 0, 0},
		{"small", 100, 100},
		{"exactly the limit", MaxResponseBody, MaxResponseBody},
		{"oversized", 4 * MaxResponseBody, MaxResponseBody},
	} {
		t.Run(tc.name, func(t *testing.T) {
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				w.Write(bytes.Repeat([]byte("x"), tc.size))
			}))
			defer srv.Close()
			res, err := post(t, NewClient(Policy{Allow: loopback}), srv.URL)
			if err != nil {
				t.Fatal(err)
			}
			body, err := ReadLimited(res)
			if err != nil || len(body) != tc.want {
				t.Errorf("ReadLimited = %d bytes, %v; want %d bytes", len(body), err, tc.want)
			}
		})
	}
}

// TestReadLimitedClosesOversized checks that the rest of a long body is
// not read: the connection is closed, not drained for reuse.
func TestReadLimitedClosesOversized(t *testing.T) {
	var conns atomic.Int32
	srv := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Write(bytes.Repeat([]byte("x"), 4*MaxResponseBody))
	}))
	srv.Config.ConnState = func(_ net.Conn, s http.ConnState) {
		if s == http.StateNew {
			conns.Add(1)
		}
	}
	srv.Start()
	defer srv.Close()
	c := NewClient(Policy{Allow: loopback})
	for range 2 {
		res, err := post(t, c, srv.URL)
		if err != nil {
			t.Fatal(err)
		}
		ReadLimited(res)
	}
	srv.Close() // waits for the handlers, so conns is settled
	if n := conns.Load(); n != 2 {
		t.Errorf("%d connections for 2 oversized answers, want 2", n)
	}
}

func TestClientRefusesOversizedHeaders(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("X-Big", strings.Repeat("x", MaxResponseHeader+1))
	}))
	defer srv.Close()
	res, err := post(t, NewClient(Policy{Allow: loopback}), srv.URL)
	if err == nil {
		res.Body.Close()
		t.Fatal("oversized headers were accepted")
	}
	if !strings.Contains(err.Error(), "headers exceeded") {
		t.Errorf("error = %v, want headers exceeded", err)
	}
}

// TestClientRefusesRebinding stands in for DNS rebinding: CheckURL is
// skipped (it would refuse localhost), and the dialer is handed a name
// that resolves, at connect time, to loopback.
func TestClientRefusesRebinding(t *testing.T) {
	if _, err := net.DefaultResolver.LookupNetIP(context.Background(), "ip", "localhost"); err != nil {
		t.Skipf("localhost does not resolve here: %v", err)
	}
	srv := httptest.NewServer(http.HandlerFunc(func(http.ResponseWriter, *http.Request) {}))
	defer srv.Close()
	u, _ := url.Parse(srv.URL)
	u.Host = net.JoinHostPort("localhost", u.Port())

	mustRefuse(t, NewClient(Policy{}), u.String(), "is not a permitted destination")
}

// TestClientRefusesIPv6Loopback covers the tcp6 side of the guard.
func TestClientRefusesIPv6Loopback(t *testing.T) {
	ln, err := net.Listen("tcp6", "[::1]:0")
	if err != nil {
		t.Skipf("no IPv6 loopback: %v", err)
	}
	srv := &httptest.Server{Listener: ln, Config: &http.Server{Handler: http.NotFoundHandler()}}
	srv.Start()
	defer srv.Close()

	mustRefuse(t, NewClient(Policy{}), srv.URL, "::1 is not a permitted destination")
	res, err := post(t, NewClient(Policy{Allow: []netip.Prefix{netip.MustParsePrefix("::1/128")}}), srv.URL)
	if err != nil {
		t.Fatalf("[::1] allowed but refused: %v", err)
	}
	ReadLimited(res)
}

func TestClientTransport(t *testing.T) {
	tr := NewClient(Policy{}).Transport.(*http.Transport)
	if tr.Proxy != nil {
		t.Error("Proxy is set; deliveries must not go through an environment proxy")
	}
	if !tr.ForceAttemptHTTP2 || tr.MaxResponseHeaderBytes != MaxResponseHeader || tr.TLSHandshakeTimeout == 0 ||
		tr.ResponseHeaderTimeout == 0 || tr.MaxIdleConnsPerHost == 0 || tr.MaxIdleConnsPerHost > DefaultPerHost {
		t.Errorf("transport settings: %+v", tr)
	}
}

// TestClientIgnoresEnvironmentProxy checks that HTTP_PROXY is not used:
// a proxy would forward to a destination the guard never sees.
func TestClientIgnoresEnvironmentProxy(t *testing.T) {
	var proxied atomic.Bool
	proxy := httptest.NewServer(http.HandlerFunc(func(http.ResponseWriter, *http.Request) { proxied.Store(true) }))
	defer proxy.Close()
	t.Setenv("HTTP_PROXY", proxy.URL)
	t.Setenv("http_proxy", proxy.URL)
	t.Setenv("NO_PROXY", "")
	t.Setenv("no_proxy", "")

	// 192.0.2.1 is refused by the guard before any packet is sent; through
	// the proxy it would have been "reached".
	mustRefuse(t, NewClient(Policy{Allow: loopback}), "http://192.0.2.1/hook", "192.0.2.1")
	if proxied.Load() {
		t.Error("the delivery went through the environment's proxy")
	}
}
