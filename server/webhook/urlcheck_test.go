package webhook

import (
	"context"
	"errors"
	"hash/fnv"
	"net/netip"
	"net/url"
	"strings"
	"testing"
	"time"

	"code.dny.dev/ssrf"
	"github.com/google/go-cmp/cmp"

	"github.com/feedbackhq/feedback/shared/feedback"
)

// fakeResolver answers from a table, ignoring case and one trailing dot,
// and records the names it was asked.
type fakeResolver struct {
	answers map[string][]netip.Addr
	asked   []string
}

var errNoSuchHost = errors.New("no such host")

func (r *fakeResolver) LookupNetIP(_ context.Context, network, host string) ([]netip.Addr, error) {
	if network != "ip" {
		return nil, errors.New("unexpected network " + network)
	}
	r.asked = append(r.asked, host)
	a, ok := r.answers[strings.TrimSuffix(strings.ToLower(host), ".")]
	if !ok {
		return nil, errNoSuchHost
	}
	return append([]netip.Addr(nil), a...), nil
}

func addrs(s ...string) []netip.Addr {
	var out []netip.Addr
	for _, a := range s {
		out = append(out, netip.MustParseAddr(a))
	}
	return out
}

func testResolver() *fakeResolver {
	return &fakeResolver{answers: map[string][]netip.Addr{
		"hooks.example.com":                  addrs("93.184.215.14", "2606:2800:21f:cb07:6820:80da:af6b:8b2c"),
		"xn--bcher-kva.example":              addrs("93.184.215.15"),
		"internal.example":                   addrs("10.0.0.5"),
		"mixed.example":                      addrs("93.184.215.14", "192.168.1.7"),
		"mixed6.example":                     addrs("2606:2800:21f:cb07:6820:80da:af6b:8b2c", "fd12::1"),
		"loop.example":                       addrs("127.0.0.1"),
		"mapped.example":                     addrs("::ffff:10.0.0.5"),
		"mapped-public.example":              addrs("::ffff:93.184.215.14"),
		"metadata.example":                   addrs("169.254.169.254"),
		"metadata6.example":                  addrs("fd00:ec2::254"),
		"cgnat.example":                      addrs("100.64.1.1"),
		"nat64.example":                      addrs("64:ff9b::a00:5"),
		"sixtofour.example":                  addrs("2002:a00:5::1"),
		"empty.example":                      nil,
		"under_score.example":                addrs("93.184.215.16"),
		"lab.internal.example":               addrs("10.1.2.3", "10.1.2.4"),
		"half-allowed.example":               addrs("10.1.2.3", "93.184.215.14"),
		"linklocal6.example":                 addrs("fe80::1%eth0"),
		"zero.example":                       addrs("0.1.2.3"),
		"broadcast.example":                  addrs("255.255.255.255"),
		"multicast.example":                  addrs("224.0.0.251"),
		"unspecified.example":                addrs("0.0.0.0"),
		"unspecified6.example":               addrs("::"),
		"teredo.example":                     addrs("2001:0:4136:e378:8000:63bf:3fff:fdd2"),
		"documentation.example":              addrs("192.0.2.10"),
		"0x7f.example":                       addrs("93.184.215.17"),
		"dead.beef":                          addrs("93.184.215.18"),
		"7f000001":                           addrs("93.184.215.19"),
		strings.Repeat("a", 63) + ".example": addrs("93.184.215.20"),
	}}
}

func TestCheckURL(t *testing.T) {
	allow := []netip.Prefix{netip.MustParsePrefix("10.1.0.0/16"), netip.MustParsePrefix("fd12::/16")}
	loopAllow := []netip.Prefix{netip.MustParsePrefix("127.0.0.0/8")}
	for _, tc := range []struct {
		name  string
		url   string
		allow []netip.Prefix
		want  string // "" when accepted, else a substring of the reason
	}{
		// Accepted.
		{"https name", "https://hooks.example.com/hook?x=1", nil, ""},
		{"https name with port", "https://hooks.example.com:8443/hook", nil, ""},
		{"https name upper case", "HTTPS://Hooks.Example.COM/hook", nil, ""},
		{"https trailing dot", "https://hooks.example.com./hook", nil, ""},
		{"https public IPv4", "https://93.184.215.14/hook", nil, ""},
		{"https public IPv6", "https://[2606:4700:4700::1111]:443/hook", nil, ""},
		{"https mapped public IPv6", "https://[::ffff:93.184.215.14]/", nil, ""},
		{"https name mapped public", "https://mapped-public.example/", nil, ""},
		{"punycode", "https://xn--bcher-kva.example/", nil, ""},
		{"underscore", "https://under_score.example/", nil, ""},
		{"hex-looking labels are names", "https://dead.beef/", nil, ""},
		{"0x label not last", "https://0x7f.example/", nil, ""},
		{"hex without 0x is a name", "https://7f000001/", nil, ""},
		{"63-byte label", "https://" + strings.Repeat("a", 63) + ".example/", nil, ""},
		{"http allowed literal", "http://10.1.2.3:8080/hook", allow, ""},
		{"http allowed name", "http://lab.internal.example/hook", allow, ""},
		{"http allowed IPv6", "http://[fd12::7]/hook", allow, ""},
		{"https allowed private", "https://lab.internal.example/", allow, ""},
		{"http localhost allowed", "http://localhost:8080/hook", loopAllow, ""},
		{"http sub.localhost allowed", "http://app.localhost./hook", loopAllow, ""},
		{"http loopback allowed", "http://127.0.0.1:9/", loopAllow, ""},
		{"allow as mapped prefix", "http://10.1.2.3/", []netip.Prefix{netip.MustParsePrefix("::ffff:10.1.0.0/112")}, ""},

		// Scheme and syntax.
		{"empty", "", nil, "is required"},
		{"too long", "https://hooks.example.com/" + strings.Repeat("a", 2048), nil, "at most 2048"},
		{"no scheme", "hooks.example.com/hook", nil, "absolute http or https"},
		{"scheme-relative", "//hooks.example.com/hook", nil, "absolute http or https"},
		{"opaque", "https:hooks.example.com", nil, "absolute http or https"},
		{"ftp", "ftp://hooks.example.com/", nil, "must use https"},
		{"javascript", "javascript:alert(1)", nil, "absolute http or https"},
		{"unparsable", "https://hooks example.com/", nil, "absolute http or https"},
		{"http public", "http://hooks.example.com/", nil, "must use https (http only"},
		{"http half allowed", "http://half-allowed.example/", allow, "must use https (http only"},
		{"userinfo", "https://user:pw@hooks.example.com/", nil, "user information"},
		{"empty userinfo", "https://@hooks.example.com/", nil, "user information"},
		{"fragment", "https://hooks.example.com/#frag", nil, "fragment"},
		{"empty fragment", "https://hooks.example.com/#", nil, "fragment"},
		{"empty host", "https:///hook", nil, "must name a host"},
		{"empty host with port", "https://:443/hook", nil, "must name a host"},
		{"port 0", "https://hooks.example.com:0/", nil, "port between 1 and 65535"},
		{"port too big", "https://hooks.example.com:65536/", nil, "port between 1 and 65535"},
		{"two trailing dots", "https://hooks.example.com../", nil, "valid host name"},
		{"empty label", "https://hooks..example.com/", nil, "valid host name"},
		{"leading hyphen", "https://-hooks.example.com/", nil, "valid host name"},
		{"sub-delims in host", "https://hooks$.example.com/", nil, "valid host name"},
		{"64-byte label", "https://" + strings.Repeat("a", 64) + ".example/", nil, "valid host name"},
		{"IDN", "https://bücher.example/", nil, "xn-- punycode"},
		{"IDN escaped", "https://b%C3%BCcher.example/", nil, "xn-- punycode"},
		{"fullwidth localhost", "https://ｌｏｃａｌｈｏｓｔ/", nil, "xn-- punycode"},
		{"ideographic dots", "https://127。0。0。1/", nil, "xn-- punycode"},

		// DNS.
		{"does not resolve", "https://nowhere.example/", nil, "does not resolve"},
		{"no addresses", "https://empty.example/", nil, "does not resolve"},
		{"name to private", "https://internal.example/", nil, "resolves to a private address 10.0.0.5"},
		{"mixed public and private", "https://mixed.example/", nil, "resolves to a private address 192.168.1.7"},
		{"mixed public and private v6", "https://mixed6.example/", nil, "resolves to a private address fd12::1"},
		{"name to loopback", "https://loop.example/", nil, "resolves to a loopback address 127.0.0.1"},
		{"name to mapped private", "https://mapped.example/", nil, "resolves to a private address 10.0.0.5"},
		{"name to metadata", "https://metadata.example/", nil, "cloud metadata address 169.254.169.254"},
		{"name to metadata v6", "https://metadata6.example/", nil, "cloud metadata address fd00:ec2::254"},
		{"name to CGNAT", "https://cgnat.example/", nil, "carrier-grade NAT) address 100.64.1.1"},
		{"name to NAT64", "https://nat64.example/", nil, "NAT64 address 64:ff9b::a00:5"},
		{"name to 6to4", "https://sixtofour.example/", nil, "6to4 address 2002:a00:5::1"},
		{"name to Teredo", "https://teredo.example/", nil, "Teredo address"},
		{"name to link-local v6 with zone", "https://linklocal6.example/", nil, "link-local address fe80::1"},
		{"name to 0/8", "https://zero.example/", nil, "reserved address 0.1.2.3"},
		{"name to broadcast", "https://broadcast.example/", nil, "broadcast address 255.255.255.255"},
		{"name to multicast", "https://multicast.example/", nil, "multicast address 224.0.0.251"},
		{"name to unspecified", "https://unspecified.example/", nil, "unspecified address 0.0.0.0"},
		{"name to unspecified v6", "https://unspecified6.example/", nil, "unspecified address ::"},
		{"name to documentation", "https://documentation.example/", nil, "reserved address 192.0.2.10"},
		{"private outside allow", "https://internal.example/", allow, "private address 10.0.0.5"},

		// localhost.
		{"localhost", "https://localhost/", nil, "resolves to a loopback address 127.0.0.1"},
		{"localhost upper", "https://LOCALHOST:8443/", nil, "loopback address 127.0.0.1"},
		{"localhost dot", "https://localhost./", nil, "loopback address 127.0.0.1"},
		{"sub.localhost", "https://a.b.localhost/", nil, "loopback address 127.0.0.1"},

		// IPv4 literals.
		{"loopback", "https://127.0.0.1/", nil, "is a loopback address 127.0.0.1"},
		{"loopback other", "https://127.53.0.1:8443/", nil, "loopback address 127.53.0.1"},
		{"RFC 1918 10", "https://10.0.0.5/", nil, "is a private address 10.0.0.5"},
		{"RFC 1918 172", "https://172.16.3.4/", nil, "private address 172.16.3.4"},
		{"RFC 1918 192", "https://192.168.0.1/", nil, "private address 192.168.0.1"},
		{"metadata", "https://169.254.169.254/latest/meta-data/", nil, "cloud metadata address 169.254.169.254"},
		{"link-local", "https://169.254.1.1/", nil, "link-local address 169.254.1.1"},
		{"CGNAT", "https://100.64.0.1/", nil, "carrier-grade NAT) address 100.64.0.1"},
		{"unspecified", "https://0.0.0.0/", nil, "unspecified address 0.0.0.0"},
		{"this network", "https://0.1.2.3/", nil, "reserved address 0.1.2.3"},
		{"broadcast", "https://255.255.255.255/", nil, "broadcast address 255.255.255.255"},
		{"multicast", "https://224.0.0.1/", nil, "multicast address 224.0.0.1"},
		{"reserved 240/4", "https://240.0.0.1/", nil, "reserved address 240.0.0.1"},
		{"loopback outside allow", "http://127.0.0.1/", allow, "loopback address 127.0.0.1"},

		// Numeric forms other than the canonical dotted quad.
		{"decimal", "http://2130706433/", loopAllow, "canonical dotted quad"},
		{"decimal public", "https://1572395042/", nil, "canonical dotted quad"},
		{"octal", "https://0177.0.0.1/", nil, "canonical dotted quad"},
		{"leading zero", "https://010.0.0.1/", nil, "canonical dotted quad"},
		{"hex short", "https://0x7f.1/", nil, "canonical dotted quad"},
		{"hex whole", "https://0x7F000001/", nil, "canonical dotted quad"},
		{"hex parts", "https://0x7f.0x0.0x0.0x1/", nil, "canonical dotted quad"},
		{"bare 0x", "https://0x/", nil, "canonical dotted quad"},
		{"short", "https://127.1/", loopAllow, "canonical dotted quad"},
		{"zero", "https://0/", nil, "canonical dotted quad"},
		{"five parts", "https://1.2.3.4.5/", nil, "canonical dotted quad"},
		{"part too big", "https://1.2.3.256/", nil, "canonical dotted quad"},
		{"name ending in a number", "https://example.123/", nil, "canonical dotted quad"},
		{"dotted quad trailing dot", "https://93.184.215.14./", nil, "canonical dotted quad"},
		{"loopback trailing dot", "https://127.0.0.1./", nil, "canonical dotted quad"},

		// IPv6 literals.
		{"v6 loopback", "https://[::1]/", nil, "is a loopback address ::1"},
		{"v6 unspecified", "https://[::]/", nil, "unspecified address ::"},
		{"v6 link-local", "https://[fe80::1]/", nil, "link-local address fe80::1"},
		{"v6 zone", "https://[fe80::1%25eth0]/", nil, "IPv6 zone"},
		{"v6 ULA", "https://[fc00::1]/", nil, "private address fc00::1"},
		{"v6 ULA fd", "https://[fd12:3456::1]/", nil, "private address fd12:3456::1"},
		{"v6 metadata", "https://[fd00:ec2::254]/", nil, "cloud metadata address fd00:ec2::254"},
		{"v6 multicast", "https://[ff02::1]/", nil, "multicast address ff02::1"},
		{"v6 mapped loopback", "https://[::ffff:127.0.0.1]/", nil, "loopback address 127.0.0.1"},
		{"v6 mapped private", "https://[::ffff:10.0.0.1]/", nil, "private address 10.0.0.1"},
		{"v6 mapped metadata hex", "https://[::ffff:a9fe:a9fe]/", nil, "cloud metadata address 169.254.169.254"},
		{"v6 compatible loopback", "https://[::127.0.0.1]/", nil, "reserved address ::7f00:1"},
		{"v6 NAT64 private", "https://[64:ff9b::10.0.0.1]/", nil, "NAT64 address 64:ff9b::a00:1"},
		{"v6 NAT64 public", "https://[64:ff9b::93.184.215.14]/", nil, "NAT64 address"},
		{"v6 6to4 private", "https://[2002:c0a8:0101::1]/", nil, "6to4 address 2002:c0a8:101::1"},
		{"v6 Teredo", "https://[2001:0:4136:e378:8000:63bf:3fff:fdd2]/", nil, "Teredo address"},
		{"v6 documentation", "https://[2001:db8::1]/", nil, "reserved address 2001:db8::1"},
		{"v4 in brackets", "https://[127.0.0.1]/", nil, "absolute http or https"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := Policy{Allow: tc.allow, Resolver: testResolver()}
			err := p.CheckURL(context.Background(), tc.url)
			if tc.want == "" {
				if err != nil {
					t.Fatalf("CheckURL(%q) = %v, want nil", tc.url, err)
				}
				return
			}
			params := checkValidation(t, err)
			if !strings.Contains(params[0].Reason, tc.want) {
				t.Errorf("CheckURL(%q) reason = %q, want it to contain %q", tc.url, params[0].Reason, tc.want)
			}
		})
	}
}

// checkValidation checks that err is a validation error naming url only,
// and returns its params.
func checkValidation(t *testing.T, err error) []feedback.InvalidParam {
	t.Helper()
	var fe *feedback.Error
	if !errors.As(err, &fe) || fe.Code != feedback.EValidation {
		t.Fatalf("error = %#v, want a *feedback.Error with code %s", err, feedback.EValidation)
	}
	if len(fe.Params) != 1 || fe.Params[0].Name != "url" || fe.Params[0].Reason == "" {
		t.Fatalf("params = %+v, want one named url with a reason", fe.Params)
	}
	return fe.Params
}

func TestCheckURLError(t *testing.T) {
	p := Policy{Resolver: testResolver()}
	err := p.CheckURL(context.Background(), "https://internal.example/hook")
	want := &feedback.Error{
		Code:    feedback.EValidation,
		Message: "The request body is invalid: url resolves to a private address 10.0.0.5.",
		Params:  []feedback.InvalidParam{{Name: "url", Reason: "resolves to a private address 10.0.0.5"}},
	}
	if diff := cmp.Diff(want, err); diff != "" {
		t.Errorf("CheckURL error (-want +got):\n%s", diff)
	}

	// A DNS failure keeps its cause for the log, not for the client.
	err = p.CheckURL(context.Background(), "https://nowhere.example/")
	if !errors.Is(err, errNoSuchHost) {
		t.Errorf("CheckURL(nowhere) = %v, want it to wrap the resolver error", err)
	}
	if msg := feedback.ErrorMessage(err); strings.Contains(msg, "no such host") {
		t.Errorf("client message leaks the cause: %q", msg)
	}
}

// ctxResolver fails as a resolver does when its context ends.
type ctxResolver struct{}

func (ctxResolver) LookupNetIP(ctx context.Context, _, _ string) ([]netip.Addr, error) {
	<-ctx.Done()
	return nil, ctx.Err()
}

func TestCheckURLContextEnds(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	err := Policy{Resolver: ctxResolver{}}.CheckURL(ctx, "https://hooks.example.com/")
	if !errors.Is(err, context.Canceled) || feedback.ErrorCode(err) == feedback.EValidation {
		t.Errorf("CheckURL with a cancelled context = %v, want context.Canceled", err)
	}
}

func TestCheckURLLooksUpOnlyNames(t *testing.T) {
	r := testResolver()
	p := Policy{Resolver: r}
	for _, u := range []string{
		"https://93.184.215.14/", "https://[::1]/", "https://localhost/", "https://x.localhost/",
		"https://2130706433/", "https://user@hooks.example.com/", "ftp://hooks.example.com/",
	} {
		_ = p.CheckURL(context.Background(), u)
	}
	if len(r.asked) != 0 {
		t.Errorf("resolver asked %q, want no lookups", r.asked)
	}
	_ = p.CheckURL(context.Background(), "https://Hooks.Example.com./x")
	if diff := cmp.Diff([]string{"hooks.example.com."}, r.asked); diff != "" {
		t.Errorf("names asked (-want +got):\n%s", diff)
	}
}

func TestCheckURLDefaultResolver(t *testing.T) {
	// A nil Resolver is net.DefaultResolver, whose answers are unmapped:
	// Go returns IPv4 answers as IPv4-mapped IPv6 addresses.
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	as, _, err := Policy{}.lookup(ctx, "localhost")
	if err != nil {
		t.Skipf("localhost does not resolve here: %v", err)
	}
	for _, a := range as {
		if a.Is4In6() || !a.IsLoopback() {
			t.Errorf("lookup(localhost) = %v, want unmapped loopback addresses", as)
		}
	}
}

// fuzzResolver answers any name with addresses picked by its hash from a
// pool of public, private and special addresses, and remembers them.
type fuzzResolver struct{ answered []netip.Addr }

var fuzzPool = addrs("93.184.215.14", "10.0.0.5", "10.1.2.3", "127.0.0.1", "::ffff:10.0.0.5",
	"::ffff:93.184.215.14", "169.254.169.254", "2606:4700:4700::1111", "fd12::1", "fe80::1",
	"64:ff9b::a00:5", "100.64.0.1", "0.0.0.0", "::1", "2002:a00:5::1")

func (r *fuzzResolver) LookupNetIP(_ context.Context, _, host string) ([]netip.Addr, error) {
	h := fnv.New64a()
	h.Write([]byte(host))
	n := h.Sum64()
	if n%7 == 0 {
		return nil, errNoSuchHost
	}
	r.answered = nil
	for i := uint64(0); i <= n%3; i++ {
		r.answered = append(r.answered, fuzzPool[(n>>(8*i))%uint64(len(fuzzPool))])
	}
	return append([]netip.Addr(nil), r.answered...), nil
}

func FuzzCheckURL(f *testing.F) {
	for _, s := range []string{
		"https://hooks.example.com/hook", "http://10.1.2.3:8080/x", "http://2130706433/", "https://0x7f.1/",
		"https://[::ffff:127.0.0.1]/", "https://user@host/", "https://h/#f", "https://localhost./",
		"https://[fe80::1%25eth0]/", "https://bücher.example/", "https://127.1/", "https://0177.0.0.1/",
		"http://[fd12::1]/", "https://a..b/", "https://x:65535/", "HTTPS://X.Y./",
	} {
		f.Add(s)
	}
	allow := []netip.Prefix{netip.MustParsePrefix("10.1.0.0/16"), netip.MustParsePrefix("fd12::/16")}
	oracle := ssrf.New(ssrf.WithAnyPort())
	f.Fuzz(func(t *testing.T, raw string) {
		r := &fuzzResolver{}
		p := Policy{Allow: allow, Resolver: r}
		err := p.CheckURL(context.Background(), raw)
		if err != nil {
			checkValidation(t, err)
			return
		}
		u, perr := url.Parse(raw)
		if perr != nil || (u.Scheme != "http" && u.Scheme != "https") || u.User != nil || strings.Contains(raw, "#") {
			t.Fatalf("accepted %q: parse error %v or bad scheme, userinfo or fragment", raw, perr)
		}
		as := r.answered
		if a, err := netip.ParseAddr(u.Hostname()); err == nil {
			as = []netip.Addr{a}
		} else if h := strings.ToLower(strings.TrimSuffix(u.Hostname(), ".")); h == "localhost" || strings.HasSuffix(h, ".localhost") {
			t.Fatalf("accepted %q: localhost without 127.0.0.0/8 allowed", raw)
		}
		if len(as) == 0 {
			t.Fatalf("accepted %q without any address", raw)
		}
		for _, a := range as {
			a = a.Unmap()
			allowed := allow[0].Contains(a) || allow[1].Contains(a)
			if !allowed && (u.Scheme == "http" || oracle.SafeAddr(a) != nil) {
				t.Fatalf("accepted %q with address %s", raw, a)
			}
		}
	})
}
