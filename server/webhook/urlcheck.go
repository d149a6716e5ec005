package webhook

import (
	"context"
	"fmt"
	"net"
	"net/netip"
	"net/url"
	"strconv"
	"strings"

	"code.dny.dev/ssrf"

	"github.com/feedbackhq/feedback/shared/feedback"
)

// Resolver looks up a host's addresses; *[net.Resolver] is one.
type Resolver interface {
	LookupNetIP(ctx context.Context, network, host string) ([]netip.Addr, error)
}

// Policy says which webhook destinations are acceptable. By default only
// public addresses are: the IANA special-purpose ranges that
// code.dny.dev/ssrf denies (loopback, RFC 1918 and fc00::/7, link-local
// with the cloud metadata addresses, multicast, unspecified, CGNAT
// 100.64.0.0/10, 0.0.0.0/8, broadcast, documentation, NAT64, 6to4,
// Teredo, and all IPv6 outside 2000::/3) are refused.
type Policy struct {
	// Allow lists networks that are acceptable even though special, and
	// to which plain http may be used. IPv4-mapped IPv6 prefixes count as
	// their IPv4 prefix.
	Allow []netip.Prefix
	// Resolver resolves host names; nil means [net.DefaultResolver].
	Resolver Resolver
}

// CheckURL reports whether raw is an acceptable webhook destination, as
// an [*feedback.Error] with code [feedback.EValidation] and one invalid
// parameter named "url" whose reason says why, or nil.
//
// The URL must be absolute http or https without user information or a
// fragment; any port 1..65535 may be given. Every address the host is,
// or resolves to (a DNS failure is refused as "does not resolve"), must
// be public or inside [Policy.Allow]; plain http further needs every
// address inside Allow. IPv4-mapped IPv6 addresses are judged as the
// IPv4 address they carry. "localhost" and names under .localhost stand
// for 127.0.0.1 without a lookup.
//
// Numeric hosts: a host whose last label is a number (decimal digits, or
// 0x and hex digits; the WHATWG URL rule for "ends in a number") is an
// IPv4 address to browsers and curl, which also read decimal
// (2130706433), octal (0177.0.0.1), hex (0x7f.1) and short (127.1) forms
// that Go parses differently or not at all. Such a host is refused unless
// it is a canonical dotted quad (four decimal parts 0..255 without leading
// zeros or a trailing dot). IPv6 literals must be in brackets, without a
// zone. Host names must be ASCII (IDNs in their xn-- punycode form), at
// most one trailing dot, labels of letters, digits, '-' and '_'.
//
// CheckURL judges the addresses at the time of the call; the client of
// [NewClient] checks again the address it connects to. If ctx ends
// during the lookup, CheckURL returns ctx's error instead.
func (p Policy) CheckURL(ctx context.Context, raw string) error {
	u, reason := parseWebhookURL(raw)
	if reason != "" {
		return invalidURL(reason, nil)
	}
	addrs, literal, err := p.addrs(ctx, u)
	if err != nil {
		return err
	}
	verb := "resolves to"
	if literal {
		verb = "is"
	}
	guard := p.guardian()
	allAllowed := true
	for _, a := range addrs {
		if p.allows(a) {
			continue
		}
		allAllowed = false
		if guard.SafeAddr(a) != nil {
			return invalidURL(fmt.Sprintf("%s %s address %s", verb, addrKind(a), a), nil)
		}
	}
	if u.Scheme == "http" && !allAllowed {
		return invalidURL("must use https (http only for hosts on the server's allow-list)", nil)
	}
	return nil
}

// parseWebhookURL checks everything but the host's addresses, and
// returns the parsed URL or why raw is refused.
func parseWebhookURL(raw string) (*url.URL, string) {
	if raw == "" {
		return nil, "is required"
	}
	if len(raw) > feedback.MaxWebhookURL {
		return nil, fmt.Sprintf("must be at most %d characters", feedback.MaxWebhookURL)
	}
	u, err := url.Parse(raw)
	switch {
	case err != nil || !u.IsAbs() || u.Opaque != "":
		return nil, "must be an absolute http or https URL"
	case u.Scheme != "http" && u.Scheme != "https":
		return nil, "must use https"
	case u.User != nil:
		return nil, "must not contain user information"
	case strings.Contains(raw, "#"):
		return nil, "must not contain a fragment"
	case u.Hostname() == "":
		return nil, "must name a host"
	}
	if port := u.Port(); port != "" {
		if n, err := strconv.Atoi(port); err != nil || n < 1 || n > 65535 {
			return nil, "must have a port between 1 and 65535"
		}
	}
	return u, ""
}

// addrs returns the addresses u's host stands for (unmapped, without
// zones), and whether the host is an IP literal.
func (p Policy) addrs(ctx context.Context, u *url.URL) ([]netip.Addr, bool, error) {
	host := u.Hostname()
	if strings.HasPrefix(u.Host, "[") {
		a, err := netip.ParseAddr(host)
		switch {
		case err != nil || !a.Is6():
			return nil, true, invalidURL("must have a valid IPv6 address in brackets", nil)
		case a.Zone() != "":
			return nil, true, invalidURL("must not have an IPv6 zone", nil)
		}
		return []netip.Addr{a.Unmap()}, true, nil
	}
	name, reason := hostName(host)
	switch {
	case reason != "":
		return nil, false, invalidURL(reason, nil)
	case endsInNumber(name):
		a, err := netip.ParseAddr(host)
		if err != nil || !a.Is4() {
			return nil, true, invalidURL("must write an IPv4 address as a canonical dotted quad such as 192.0.2.1", nil)
		}
		return []netip.Addr{a}, true, nil
	case name == "localhost" || strings.HasSuffix(name, ".localhost"):
		return []netip.Addr{netip.AddrFrom4([4]byte{127, 0, 0, 1})}, false, nil
	}
	return p.lookup(ctx, strings.ToLower(host))
}

// lookup resolves host.
func (p Policy) lookup(ctx context.Context, host string) ([]netip.Addr, bool, error) {
	r := p.Resolver
	if r == nil {
		r = net.DefaultResolver
	}
	addrs, err := r.LookupNetIP(ctx, "ip", host)
	if err == nil && len(addrs) == 0 {
		err = fmt.Errorf("lookup %s: no addresses", host)
	}
	if err != nil && ctx.Err() != nil {
		return nil, false, ctx.Err()
	}
	if err != nil {
		return nil, false, invalidURL("does not resolve", err)
	}
	out := make([]netip.Addr, len(addrs)) // the resolver's slice may be shared
	for i, a := range addrs {
		out[i] = a.Unmap().WithZone("")
	}
	return out, false, nil
}

// hostName lowercases host, drops one trailing dot, and checks that the
// rest is an ASCII DNS name (labels of letters, digits, '-' and '_',
// not starting or ending with '-'), returning why it is not.
func hostName(host string) (string, string) {
	name := strings.ToLower(strings.TrimSuffix(host, "."))
	if name == "" || len(name) > 253 {
		return "", "must have a valid host name"
	}
	for _, label := range strings.Split(name, ".") {
		if len(label) == 0 || len(label) > 63 || label[0] == '-' || label[len(label)-1] == '-' {
			return "", "must have a valid host name"
		}
		for i := 0; i < len(label); i++ {
			switch c := label[i]; {
			case c >= 0x80:
				return "", "must have an ASCII host name (write an internationalized name as xn-- punycode)"
			case 'a' <= c && c <= 'z', '0' <= c && c <= '9', c == '-', c == '_':
			default:
				return "", "must have a valid host name"
			}
		}
	}
	return name, ""
}

// endsInNumber reports whether the last label of name is a number to the
// WHATWG URL parser: decimal digits, or "0x" followed by hex digits.
func endsInNumber(name string) bool {
	last := name[strings.LastIndexByte(name, '.')+1:]
	if hex, ok := strings.CutPrefix(last, "0x"); ok {
		return strings.Trim(hex, "0123456789abcdef") == ""
	}
	return strings.Trim(last, "0123456789") == ""
}

// allows reports whether a is inside p.Allow.
func (p Policy) allows(a netip.Addr) bool {
	for _, n := range p.Allow {
		if unmapPrefix(n).Contains(a) {
			return true
		}
	}
	return false
}

// guardian returns the connect-time check for p: any port, tcp4 and
// tcp6, with p.Allow let through before ssrf's deny lists.
func (p Policy) guardian() *ssrf.Guardian {
	var v4, v6 []netip.Prefix
	for _, n := range p.Allow {
		n = unmapPrefix(n)
		if n.Addr().Is4() {
			v4 = append(v4, n)
		} else {
			v6 = append(v6, n)
		}
	}
	return ssrf.New(ssrf.WithAnyPort(), ssrf.WithAllowedV4Prefixes(v4...), ssrf.WithAllowedV6Prefixes(v6...))
}

// unmapPrefix turns an IPv4-mapped IPv6 prefix into its IPv4 prefix.
func unmapPrefix(n netip.Prefix) netip.Prefix {
	if n.Addr().Is4In6() && n.Bits() >= 96 {
		return netip.PrefixFrom(n.Addr().Unmap(), n.Bits()-96)
	}
	return n
}

var (
	metadata4 = netip.MustParseAddr("169.254.169.254")
	metadata6 = netip.MustParseAddr("fd00:ec2::254")
	cgnat     = netip.MustParsePrefix("100.64.0.0/10")
	broadcast = netip.MustParseAddr("255.255.255.255")
	teredo    = netip.MustParsePrefix("2001::/32")
	sixToFour = netip.MustParsePrefix("2002::/16")
)

// addrKind names the kind of a refused address, with its article, for a
// reason such as "resolves to a private address 10.0.0.5".
func addrKind(a netip.Addr) string {
	switch {
	case a == metadata4 || a == metadata6:
		return "a cloud metadata"
	case a.IsUnspecified():
		return "an unspecified"
	case a.IsLoopback():
		return "a loopback"
	case a.IsMulticast():
		return "a multicast"
	case a.IsLinkLocalUnicast():
		return "a link-local"
	case a.IsPrivate():
		return "a private"
	case cgnat.Contains(a):
		return "a shared (carrier-grade NAT)"
	case a == broadcast:
		return "a broadcast"
	case ssrf.IPv6NAT64Prefix.Contains(a):
		return "a NAT64"
	case teredo.Contains(a):
		return "a Teredo"
	case sixToFour.Contains(a):
		return "a 6to4"
	}
	return "a reserved"
}

// invalidURL returns the validation error for the url parameter; cause,
// if any, is kept for the server log and never sent.
func invalidURL(reason string, cause error) error {
	var v feedback.Validator
	v.Add("url", reason)
	e := v.Err().(*feedback.Error)
	e.Err = cause
	return e
}
