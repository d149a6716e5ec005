package openapitest_test

import (
	"bytes"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/go-chi/chi/v5"

	"github.com/feedbackhq/feedback/server"
	"github.com/feedbackhq/feedback/server/api"
	feedbackhttp "github.com/feedbackhq/feedback/server/http"
	"github.com/feedbackhq/feedback/server/http/openapitest"
)

// noStore is a store the router can be built with; the requests below
// never reach it, as they carry no token.
type noStore struct{ server.Store }

// OnEvent accepts the live hub's hook; the document's routes write nothing.
func (noStore) OnEvent(func(string, int64)) {}

func newRouter(t *testing.T) http.Handler {
	t.Helper()
	return feedbackhttp.New(feedbackhttp.Config{Store: noStore{}, BaseURL: "https://feedback.example.com"}).Handler()
}

// TestServedDocument checks that /openapi.json serves the embedded
// openapi.yaml, converted to JSON.
func TestServedDocument(t *testing.T) {
	yamlDoc, err := os.ReadFile("../../api/openapi.yaml")
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.HasPrefix(bytes.TrimSpace(api.OpenAPI), []byte("{")) {
		t.Fatalf("OpenAPI is not JSON: %.40q", api.OpenAPI)
	}
	fromYAML, err := openapi3.NewLoader().LoadFromData(yamlDoc)
	if err != nil {
		t.Fatal(err)
	}
	fromJSON, err := openapi3.NewLoader().LoadFromData(api.OpenAPI)
	if err != nil {
		t.Fatal(err)
	}
	a, _ := fromYAML.MarshalJSON()
	b, _ := fromJSON.MarshalJSON()
	if !bytes.Equal(a, b) {
		t.Error("OpenAPI differs from openapi.yaml")
	}

	srv := httptest.NewServer(newRouter(t))
	defer srv.Close()
	v := openapitest.New(t, api.OpenAPI)
	client := &http.Client{Transport: v.Transport(nil)}
	resp, err := client.Get(srv.URL + "/api/v1/openapi.json")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != 200 || !bytes.Equal(body, api.OpenAPI) {
		t.Errorf("GET /api/v1/openapi.json: %d, %d bytes; want 200 and the document", resp.StatusCode, len(body))
	}
}

// devicePrefixes are where the router serves the device endpoints, which
// the document serves at the root of the service.
var devicePrefixes = []string{"/q/", "/kiosk/"}

// deviceAnswers is what a documented device operation answers a request
// without a credential, a valid code or a body, which tells it from a
// route the router does not have (a 404 page in text/plain, or a 405).
var deviceAnswers = map[string]int{
	"GET /q/{code}":        http.StatusNotFound, // a page: the code is not valid
	"POST /q/{code}":       http.StatusNotFound, // a problem: the code is not valid
	"GET /q/{code}/thanks": http.StatusNotFound,
	"POST /kiosk/pair":     http.StatusUnsupportedMediaType,
}

// TestRouterServesTheDocument checks both directions between the document
// and the real router: every documented operation is routed, under
// /api/v1 and /api or, for the device endpoints, at the root, and every
// API and device route of the router is documented. Without a token, a
// routed API operation answers 401 (or 200 for the public document); an
// unrouted one answers 404 or 405. The answers are validated against the
// document as well.
func TestRouterServesTheDocument(t *testing.T) {
	h := newRouter(t)
	srv := httptest.NewServer(h)
	defer srv.Close()
	v := openapitest.New(t, api.OpenAPI)
	client := &http.Client{Transport: v.Transport(nil)}

	param := regexp.MustCompile(`\{[^}]+\}`)
	documented := map[string]bool{}
	for _, op := range v.Operations() {
		method, path, _ := strings.Cut(op, " ")
		documented[method+" "+param.ReplaceAllString(path, "{}")] = true
		concrete := param.ReplaceAllString(path, "019a8f2e-4b1c-7d3e-9f20-6a5b4c3d2e1f")
		want := http.StatusUnauthorized
		if path == "/openapi.json" {
			want = http.StatusOK
		}
		prefixes := []string{"/api/v1", "/api"}
		if isDevice(path) {
			prefixes = []string{""}
			if w, ok := deviceAnswers[op]; ok {
				want = w
			}
		}
		for _, prefix := range prefixes {
			req, err := http.NewRequestWithContext(t.Context(), method, srv.URL+prefix+concrete, nil)
			if err != nil {
				t.Fatal(err)
			}
			resp, err := client.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			resp.Body.Close()
			if ct := resp.Header.Get("Content-Type"); resp.StatusCode != want || strings.HasPrefix(ct, "text/plain") {
				t.Errorf("%s %s%s: %d (%s), want %d: the router does not serve this documented operation",
					method, prefix, concrete, resp.StatusCode, ct, want)
			}
		}
	}
	if missing := v.Uncovered(); len(missing) > 0 {
		t.Errorf("not exercised: %v", missing)
	}

	var routed []string
	err := chi.Walk(h.(chi.Routes), func(method, route string, _ http.Handler, _ ...func(http.Handler) http.Handler) error {
		path, ok := "", false
		for _, prefix := range []string{"/api/v1/", "/api/"} {
			if rest, found := strings.CutPrefix(route, prefix); found {
				path, ok = "/"+rest, true
				break
			}
		}
		if isDevice(route) {
			path, ok = route, true
		}
		if !ok {
			return nil
		}
		op := method + " " + param.ReplaceAllString(path, "{}")
		routed = append(routed, op)
		if !documented[op] {
			t.Errorf("the router serves %s %s, which the document does not have", method, route)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for op := range documented {
		if !slices.Contains(routed, op) {
			t.Errorf("chi.Walk did not find the documented %s", op)
		}
	}
}

func isDevice(path string) bool {
	return slices.ContainsFunc(devicePrefixes, func(p string) bool { return strings.HasPrefix(path, p) })
}
