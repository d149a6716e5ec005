package main

import (
	"fmt"
	"net/netip"
	"net/url"
	"strings"
)

// checkBaseURL refuses a base URL that browsers would not sign in at.
// feedbackd serves plain http only, and the dashboard's __Host- cookies
// need a secure context, which plain http is only on loopback. So
// without tlsProxy the base URL must be http on loopback (localhost,
// 127.0.0.0/8, ::1), the default; with tlsProxy, a reverse proxy in front
// terminates TLS and the base URL must be its https URL.
func checkBaseURL(base string, tlsProxy bool) error {
	if base == "" && !tlsProxy {
		return nil // http://localhost:PORT
	}
	u, err := url.Parse(base)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return fmt.Errorf("--base-url %q is not an absolute http:// or https:// URL", base)
	}
	switch {
	case tlsProxy && u.Scheme != "https":
		return fmt.Errorf("--tls-proxy says a proxy in front terminates TLS, so --base-url must be its https:// URL, not %q", base)
	case !tlsProxy && u.Scheme == "https":
		return fmt.Errorf("--base-url %q is https, but feedbackd serves plain http: put a proxy that terminates TLS "+
			"in front and say so with --tls-proxy (FEEDBACK_TLS_PROXY=true)", base)
	case !tlsProxy && !loopback(u.Hostname()):
		return fmt.Errorf("--base-url %q is plain http on a host that is not loopback, where browsers refuse the "+
			"dashboard's sign-in cookies: serve it through a proxy that terminates TLS, with an https:// --base-url "+
			"and --tls-proxy (FEEDBACK_TLS_PROXY=true)", base)
	}
	return nil
}

// loopback reports whether host is localhost or a loopback address.
func loopback(host string) bool {
	if strings.EqualFold(host, "localhost") {
		return true
	}
	a, err := netip.ParseAddr(host)
	return err == nil && a.IsLoopback()
}
