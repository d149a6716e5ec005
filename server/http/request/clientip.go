package request

import (
	"context"
	"net"
	"net/http"
	"net/netip"
	"strings"
)

var clientIPKey = &contextKey{"client-ip"}

// WithClientIP returns ctx carrying the client IP ip.
func WithClientIP(ctx context.Context, ip string) context.Context {
	return context.WithValue(ctx, clientIPKey, ip)
}

// ClientIP returns the address of the client that the root router's
// middleware worked out (see [ClientAddr]), or the peer's when it did
// not run.
func ClientIP(r *http.Request) string {
	if ip, ok := r.Context().Value(clientIPKey).(string); ok {
		return ip
	}
	return parseAddr(r.RemoteAddr).String()
}

// ClientAddr returns the address of the client: the peer, or, when the
// peer is in trusted (a proxy), the right-most X-Forwarded-For address
// that is not itself in trusted.
func ClientAddr(r *http.Request, trusted []netip.Prefix) string {
	peer := parseAddr(r.RemoteAddr)
	if !contains(trusted, peer) {
		return peer.String()
	}
	hops := strings.Split(strings.Join(r.Header.Values("X-Forwarded-For"), ","), ",")
	for i := len(hops) - 1; i >= 0; i-- {
		a, err := netip.ParseAddr(strings.TrimSpace(hops[i]))
		if err != nil {
			break
		}
		if !contains(trusted, a.Unmap()) {
			return a.Unmap().String()
		}
	}
	return peer.String()
}

// contains reports whether one of prefixes contains a.
func contains(prefixes []netip.Prefix, a netip.Addr) bool {
	for _, p := range prefixes {
		if p.Contains(a) {
			return true
		}
	}
	return false
}

func parseAddr(hostport string) netip.Addr {
	host, _, err := net.SplitHostPort(hostport)
	if err != nil {
		host = hostport
	}
	a, _ := netip.ParseAddr(host)
	return a.Unmap()
}
