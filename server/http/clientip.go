package http

import (
	"net"
	"net/http"
	"net/netip"
	"strings"
)

// clientIP returns the address of the client: the peer, or, when the peer
// is a trusted proxy, the right-most X-Forwarded-For address that is not
// itself a trusted proxy.
func (s *Server) clientIP(r *http.Request) string {
	peer := parseAddr(r.RemoteAddr)
	if !s.trusted(peer) {
		return peer.String()
	}
	hops := strings.Split(strings.Join(r.Header.Values("X-Forwarded-For"), ","), ",")
	for i := len(hops) - 1; i >= 0; i-- {
		a, err := netip.ParseAddr(strings.TrimSpace(hops[i]))
		if err != nil {
			break
		}
		if !s.trusted(a.Unmap()) {
			return a.Unmap().String()
		}
	}
	return peer.String()
}

func (s *Server) trusted(a netip.Addr) bool {
	for _, p := range s.cfg.TrustedProxies {
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
