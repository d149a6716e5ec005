package openapitest

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"net/mail"
	"net/url"
	"slices"
	"sort"
	"strings"
	"sync"
	"testing"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/getkin/kin-openapi/openapi3filter"
	"github.com/getkin/kin-openapi/routers"
	"github.com/getkin/kin-openapi/routers/legacy"
)

// The prefixes the API is served under; paths in the document are
// relative to them, except those of path items served at the root (see
// [rootServers]).
const (
	prefixV1    = "/api/v1"
	prefixAlias = "/api"
)

// rootServers is the path-level servers override of a path item that is
// served at the root of the service rather than under the API prefix,
// such as the visitor and kiosk endpoints: its path is the full path of
// the request.
const rootServers = "/"

// maxBodyInReport bounds how much of a response body a failure shows.
const maxBodyInReport = 4 << 10

// Validator checks requests and responses against an OpenAPI document and
// records which operations they exercised. Use [New] or [Load] to make
// one and [Validator.Transport] to put it between a client and a server.
// Its methods are safe for concurrent use.
type Validator struct {
	*spec
	tb testing.TB // nil: mismatches are returned as RoundTrip errors

	mu      sync.Mutex
	allowed map[string]bool // "METHOD path" of deliberately undocumented requests
}

// spec is what the views made by [Validator.For] share: the document, its
// router and the coverage record.
type spec struct {
	doc    *openapi3.T
	router routers.Router
	opts   *openapi3filter.Options
	ops    []string // every documented operation, "METHOD /template", sorted

	// rootPaths are the templates of the path items served at the root;
	// rootPrefixes the first segments of them, such as "/q": a request
	// under one is routed by its full path.
	rootPaths    map[string]bool
	rootPrefixes []string

	mu      sync.Mutex
	covered map[string]map[int]bool // operation -> statuses answered
}

// New loads the OpenAPI document doc (JSON or YAML), checks that it is a
// valid document, and returns a Validator that reports every mismatch with
// t.Errorf. It fails the test at once when the document does not load.
func New(t testing.TB, doc []byte) *Validator {
	t.Helper()
	v, err := Load(doc)
	if err != nil {
		t.Fatalf("openapitest: %v", err)
	}
	v.tb = t
	return v
}

// ndjson registers the NDJSON decoder once.
var ndjson sync.Once

// Load is like [New] without a test: it returns the document's error, and
// the transports of the Validator it returns report a mismatch as the
// error of RoundTrip instead of failing a test. A suite can Load one
// Validator in TestMain, hand each test a view made by [Validator.For],
// and check the coverage of all of them at the end.
func Load(doc []byte) (*Validator, error) {
	ndjson.Do(func() { // the exports' NDJSON is a string to the document
		openapi3filter.RegisterBodyDecoder("application/x-ndjson", openapi3filter.PlainBodyDecoder)
	})
	loader := openapi3.NewLoader()
	d, err := loader.LoadFromData(doc)
	if err != nil {
		return nil, fmt.Errorf("load the OpenAPI document: %w", err)
	}
	if err := d.Validate(loader.Context); err != nil {
		return nil, fmt.Errorf("invalid OpenAPI document: %w", err)
	}
	rootPaths, rootPrefixes, err := rootServed(d)
	if err != nil {
		return nil, fmt.Errorf("invalid OpenAPI document: %w", err)
	}
	// API requests are routed with their /api/v1 or /api prefix stripped,
	// and requests to root paths by their full path, so the router must
	// not look for a server URL in them. (kin-openapi's legacy router
	// ignores path-level servers anyway.)
	d.Servers = nil
	setFormats(d)
	router, err := legacy.NewRouter(d)
	if err != nil {
		return nil, fmt.Errorf("route the OpenAPI document: %w", err)
	}
	s := &spec{doc: d, router: router, covered: map[string]map[int]bool{},
		rootPaths: rootPaths, rootPrefixes: rootPrefixes}
	s.opts = &openapi3filter.Options{
		// Authentication is the server's business: a missing or bad
		// token is tested through its 401 response.
		AuthenticationFunc: openapi3filter.NoopAuthenticationFunc,
		// Never rewrite the request with the document's defaults.
		SkipSettingDefaults:     true,
		IncludeResponseStatus:   true,
		MultiError:              true,
		SchemaValidationOptions: d.GetSchemaValidationOptions(),
	}
	for path, item := range d.Paths.Map() {
		for method := range item.Operations() {
			s.ops = append(s.ops, method+" "+path)
		}
	}
	sort.Strings(s.ops)
	return &Validator{spec: s}, nil
}

// rootServed finds the path items served at the root: those whose
// servers are exactly [{url: /}]. It returns their templates and the
// first segments of those, and refuses other path-level servers, which
// the validator cannot route, and root paths it could not tell from API
// paths.
func rootServed(d *openapi3.T) (map[string]bool, []string, error) {
	paths := map[string]bool{}
	var prefixes []string
	for path, item := range d.Paths.Map() {
		if len(item.Servers) == 0 {
			continue
		}
		if len(item.Servers) != 1 || item.Servers[0].URL != rootServers {
			return nil, nil, fmt.Errorf("path %s: path-level servers must be [{url: %s}], the root of the service",
				path, rootServers)
		}
		first, _, _ := strings.Cut(strings.TrimPrefix(path, "/"), "/")
		if first == "" || strings.ContainsAny(first, "{}") {
			return nil, nil, fmt.Errorf("path %s: a path served at the root must start with a fixed segment", path)
		}
		if _, underAPI := stripPrefix(path); underAPI {
			return nil, nil, fmt.Errorf("path %s: a path served at the root must not be under %s", path, prefixAlias)
		}
		paths[path] = true
		if p := "/" + first; !slices.Contains(prefixes, p) {
			prefixes = append(prefixes, p)
		}
	}
	sort.Strings(prefixes)
	return paths, prefixes, nil
}

// setFormats makes the formats the document uses assertions, for this
// document only: by default kin-openapi checks only date and date-time.
func setFormats(d *openapi3.T) {
	d.SetStringFormatValidator("uuid", openapi3.NewRegexpFormatValidator(
		`^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$`))
	d.SetStringFormatValidator("uri", openapi3.NewCallbackValidator(func(s string) error {
		u, err := url.Parse(s)
		if err != nil || !u.IsAbs() {
			return errors.New("must be an absolute URI")
		}
		return nil
	}))
	d.SetStringFormatValidator("uri-reference", openapi3.NewCallbackValidator(func(s string) error {
		if _, err := url.Parse(s); err != nil {
			return errors.New("must be a URI reference")
		}
		return nil
	}))
	d.SetStringFormatValidator("email", openapi3.NewCallbackValidator(func(s string) error {
		a, err := mail.ParseAddress(s)
		if err != nil || a.Name != "" || a.Address != s {
			return errors.New("must be a bare email address")
		}
		return nil
	}))
}

// For returns a view of v that reports to t: it shares v's document and
// coverage record, and starts with an empty list of allowed undocumented
// requests.
func (v *Validator) For(t testing.TB) *Validator {
	return &Validator{spec: v.spec, tb: t}
}

// AllowUnknown lets requests with method to path pass unvalidated, for
// tests that probe routes or methods the document deliberately does not
// have. path is the request's path, with or without its /api/v1 or /api
// prefix (a path served at the root, such as /kiosk/nothing, is always
// the full path); method "*" stands for any method. A documented request
// is validated all the same.
func (v *Validator) AllowUnknown(method, path string) {
	v.mu.Lock()
	defer v.mu.Unlock()
	if v.allowed == nil {
		v.allowed = map[string]bool{}
	}
	v.allowed[strings.ToUpper(method)+" "+path] = true
}

func (v *Validator) isAllowed(method, fullPath, path string) bool {
	v.mu.Lock()
	defer v.mu.Unlock()
	for _, m := range []string{strings.ToUpper(method), "*"} {
		if v.allowed[m+" "+fullPath] || v.allowed[m+" "+path] {
			return true
		}
	}
	return false
}

// Transport returns a RoundTripper that validates every API request, and
// every request under a path the document serves at the root, and its
// response against the document, and sends the request through base
// (http.DefaultTransport when nil). Other requests pass through. The
// request reaches base as sent, body included; the response body it
// returns can be read as usual.
func (v *Validator) Transport(base http.RoundTripper) http.RoundTripper {
	if base == nil {
		base = http.DefaultTransport
	}
	return &transport{v: v, base: base}
}

type transport struct {
	v    *Validator
	base http.RoundTripper
}

// RoundTrip implements http.RoundTripper.
func (t *transport) RoundTrip(req *http.Request) (*http.Response, error) {
	resp, mismatches, err := t.v.exchange(t.base, req)
	if err != nil || len(mismatches) == 0 {
		return resp, err
	}
	report := t.v.report(req, resp, mismatches)
	if t.v.tb == nil {
		_ = resp.Body.Close()
		return nil, errors.New(report)
	}
	t.v.tb.Errorf("%s", report)
	return resp, nil
}

// report describes the mismatches of one exchange.
func (v *Validator) report(req *http.Request, resp *http.Response, mismatches []error) string {
	var b strings.Builder
	fmt.Fprintf(&b, "openapitest: %s %s answered %d; the OpenAPI document does not allow this exchange:",
		req.Method, req.URL.RequestURI(), resp.StatusCode)
	for _, m := range mismatches {
		b.WriteString("\n  - ")
		b.WriteString(strings.ReplaceAll(m.Error(), "\n", "\n    "))
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body = io.NopCloser(bytes.NewReader(body))
	if len(body) > 0 {
		ct := resp.Header.Get("Content-Type")
		if !strings.HasPrefix(ct, "image/") && ct != "application/pdf" {
			if len(body) > maxBodyInReport {
				body = append(body[:maxBodyInReport:maxBodyInReport], "..."...)
			}
			fmt.Fprintf(&b, "\n  response body: %s", bytes.TrimSpace(body))
		}
	}
	return b.String()
}

// exchange validates req, sends it through base and validates the
// response. It returns the response, with a body that can be read again,
// and every mismatch; err is a failure to send.
func (v *Validator) exchange(base http.RoundTripper, req *http.Request) (*http.Response, []error, error) {
	path, atRoot, ok := v.locate(req.URL.Path)
	if !ok {
		resp, err := base.RoundTrip(req)
		return resp, nil, err
	}
	body, err := readBody(req)
	if err != nil {
		return nil, nil, err
	}
	out := withBody(req, body)
	check := withBody(req, body)
	check.URL.Path, check.URL.RawPath = path, ""

	route, params, findErr := v.router.FindRoute(check)
	if findErr == nil && v.rootPaths[route.Path] != atRoot {
		// An API path under a root prefix, or a root path under /api.
		route, params, findErr = nil, nil, &routers.RouteError{Reason: routers.ErrPathNotFound.Error()}
	}
	if findErr != nil {
		resp, _, err := send(base, out)
		if err != nil || v.isAllowed(req.Method, req.URL.Path, path) {
			return resp, nil, err
		}
		return resp, []error{fmt.Errorf("the document has no operation %s %s (%v); "+
			"call AllowUnknown for a request that probes an undocumented route or method", req.Method, path, findErr)}, nil
	}

	ctx := req.Context()
	in := &openapi3filter.RequestValidationInput{Request: check, PathParams: params, Route: route, Options: v.opts}
	reqErr := openapi3filter.ValidateRequest(ctx, in)

	resp, data, err := send(base, out)
	if err != nil {
		return nil, nil, err
	}
	v.record(route.Method+" "+route.Path, resp.StatusCode)

	var mismatches []error
	if reqErr != nil && (resp.StatusCode < 400 || resp.StatusCode > 499) {
		mismatches = append(mismatches, fmt.Errorf("the request does not match the document, "+
			"yet the server did not refuse it with a 4xx: %w", reqErr))
	}
	mismatches = append(mismatches, v.checkResponse(ctx, in, resp, data)...)
	return resp, mismatches, nil
}

// checkResponse validates status, headers and body of resp. A body of a
// media type in [typeOnly] is checked by its Content-Type only.
func (v *Validator) checkResponse(ctx context.Context, in *openapi3filter.RequestValidationInput,
	resp *http.Response, data []byte) []error {
	opts := v.opts
	ct := resp.Header.Get("Content-Type")
	byTypeOnly := typeOnly(ct)
	if byTypeOnly {
		o := *v.opts
		o.ExcludeResponseBody = true // which skips the Content-Type check too
		opts = &o
	}
	out := &openapi3filter.ResponseValidationInput{
		RequestValidationInput: in,
		Status:                 resp.StatusCode,
		Header:                 resp.Header,
		Options:                opts,
	}
	out.SetBodyBytes(data)
	var errs []error
	if err := openapi3filter.ValidateResponse(ctx, out); err != nil {
		errs = append(errs, err)
	}
	r := in.Route.Operation.Responses.Status(resp.StatusCode)
	if r == nil {
		r = in.Route.Operation.Responses.Default()
	}
	if r == nil || r.Value == nil {
		return errs // ValidateResponse has reported the status
	}
	// kin-openapi does not check that a response documented without
	// content has none.
	if len(r.Value.Content) == 0 && len(data) > 0 {
		errs = append(errs, fmt.Errorf("response %d is documented without a body, but has %d bytes (%s)",
			resp.StatusCode, len(data), ct))
	}
	if byTypeOnly && len(r.Value.Content) > 0 && r.Value.Content.Get(ct) == nil {
		errs = append(errs, fmt.Errorf("response %d: Content-Type %q is not documented for this status", resp.StatusCode, ct))
	}
	return errs
}

// typeOnly reports whether a response body of media type ct is checked by
// its Content-Type only: HTML pages, whose markup no schema describes.
func typeOnly(ct string) bool {
	mt, _, err := mime.ParseMediaType(ct)
	return err == nil && mt == "text/html"
}

// locate tells how the validator treats a request to path: ok when it
// is validated at all, with rel the path to route, which is path itself
// (atRoot) when path is under one of the document's root prefixes, or
// path relative to the API prefix.
func (s *spec) locate(path string) (rel string, atRoot, ok bool) {
	if rel, ok := stripPrefix(path); ok {
		return rel, false, true
	}
	for _, p := range s.rootPrefixes {
		// Only below the prefix: /kiosk itself is a page of the app, not
		// an operation of the document.
		if rest, found := strings.CutPrefix(path, p); found && strings.HasPrefix(rest, "/") {
			return path, true, true
		}
	}
	return "", false, false
}

// stripPrefix returns the path relative to the API prefix and whether
// path is under one.
func stripPrefix(path string) (string, bool) {
	for _, p := range []string{prefixV1, prefixAlias} {
		if rest, ok := strings.CutPrefix(path, p); ok && (rest == "" || rest[0] == '/') {
			if rest == "" {
				rest = "/"
			}
			return rest, true
		}
	}
	return "", false
}

// readBody reads and closes the body of req; nil means it has none.
func readBody(req *http.Request) ([]byte, error) {
	if req.Body == nil || req.Body == http.NoBody {
		return nil, nil
	}
	defer req.Body.Close()
	b, err := io.ReadAll(req.Body)
	if err != nil {
		return nil, fmt.Errorf("openapitest: read the request body: %w", err)
	}
	return b, nil
}

// withBody returns a copy of req whose body reads body.
func withBody(req *http.Request, body []byte) *http.Request {
	c := req.Clone(req.Context())
	if body == nil { // req.Body is nil or http.NoBody, unread
		return c
	}
	c.GetBody = func() (io.ReadCloser, error) { return io.NopCloser(bytes.NewReader(body)), nil }
	c.Body, _ = c.GetBody()
	return c
}

// send performs req and reads the whole response body, leaving a copy in
// resp.Body so that the caller can read it.
func send(base http.RoundTripper, req *http.Request) (*http.Response, []byte, error) {
	resp, err := base.RoundTrip(req)
	if err != nil {
		return nil, nil, err
	}
	data, err := io.ReadAll(resp.Body)
	_ = resp.Body.Close()
	if err != nil {
		return nil, nil, fmt.Errorf("openapitest: read the response body: %w", err)
	}
	resp.Body = io.NopCloser(bytes.NewReader(data))
	return resp, data, nil
}

func (s *spec) record(op string, status int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.covered[op] == nil {
		s.covered[op] = map[int]bool{}
	}
	s.covered[op][status] = true
}

// Operations lists every operation of the document as "METHOD /template",
// such as "GET /review/{id}", sorted.
func (v *Validator) Operations() []string {
	return slices.Clone(v.ops)
}

// Covered returns, for every operation a request exercised, the statuses
// of its responses in increasing order. Keys are as in [Validator.Operations].
func (v *Validator) Covered() map[string][]int {
	v.spec.mu.Lock()
	defer v.spec.mu.Unlock()
	out := make(map[string][]int, len(v.covered))
	for op, statuses := range v.covered {
		for s := range statuses {
			out[op] = append(out[op], s)
		}
		sort.Ints(out[op])
	}
	return out
}

// Uncovered lists the documented operations that no request exercised.
func (v *Validator) Uncovered() []string {
	covered := v.Covered()
	var out []string
	for _, op := range v.ops {
		if _, ok := covered[op]; !ok {
			out = append(out, op)
		}
	}
	return out
}

// CheckCoverage fails t, listing them, when documented operations were
// not exercised by any request through v or a view of it.
func (v *Validator) CheckCoverage(t testing.TB) {
	t.Helper()
	if missing := v.Uncovered(); len(missing) > 0 {
		t.Errorf("openapitest: %d of %d documented operations were not exercised:\n  %s",
			len(missing), len(v.ops), strings.Join(missing, "\n  "))
	}
}
