package e2e_test

import (
	"bytes"
	"cmp"
	"context"
	"net"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"sync/atomic"
	"testing"
	"time"

	"github.com/feedbackhq/feedback/shared/client"
	"github.com/feedbackhq/feedback/shared/feedback"
)

// server is one feedbackd process on its own SQLite database, seeded with
// the demo workspace (a poster for each form).
type server struct {
	t     *testing.T
	addr  string // 127.0.0.1:PORT, kept across restarts
	base  string // http://127.0.0.1:PORT
	db    string
	log   string // the output of every run of the process
	token string
	// password is the demo account's, at the embedded provider (the
	// servers started without --oidc-issuer sign in with it).
	password string
	codes    map[feedback.FormKind]string // the demo's poster code of each form
	api      *client.Client

	flags []string // the extra serve flags, kept across restarts

	cmd  *exec.Cmd
	done chan struct{} // closed when cmd has exited
}

// startServer seeds a database and starts feedbackd on it with the first
// wasm build and the extra serve flags. The process is killed when t
// ends, and its log is shown if t failed.
func startServer(t *testing.T, extra ...string) *server {
	t.Helper()
	dir := t.TempDir()
	addr := freeAddr(t)
	s := &server{t: t, addr: addr, base: "http://" + addr,
		db: filepath.Join(dir, "feedback.db"), log: filepath.Join(dir, "feedbackd.log")}
	s.seed()
	s.start(env.webA, extra...)
	t.Cleanup(func() {
		s.stop()
		if t.Failed() {
			out, _ := os.ReadFile(s.log)
			t.Logf("feedbackd log (last 8 KiB):\n%s", tail(out, 8192))
		}
	})
	return s
}

func freeAddr(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	return ln.Addr().String()
}

var (
	tokenPattern  = regexp.MustCompile(`fbk_[A-Za-z0-9]+`)
	demoPassword  = regexp.MustCompile(`(?m)^\s+password:\s+(\S+)\s*$`)
	posterPattern = regexp.MustCompile(`(?m)^\s+(hygiene|review|survey)\s.*/q/([A-Za-z0-9_-]{43})\s*$`)
)

// seed runs `feedbackd demo` and reads the token and the poster codes it
// prints.
func (s *server) seed() {
	s.t.Helper()
	out, err := exec.Command(env.feedbackd, "demo", "--db", s.db, "--base-url", s.base).CombinedOutput()
	if err != nil {
		s.t.Fatalf("feedbackd demo: %v\n%s", err, out)
	}
	s.token = tokenPattern.FindString(string(out))
	if m := demoPassword.FindStringSubmatch(string(out)); m != nil {
		s.password = m[1]
	}
	s.codes = map[feedback.FormKind]string{}
	for _, m := range posterPattern.FindAllStringSubmatch(string(out), -1) {
		s.codes[feedback.FormKind(m[1])] = m[2]
	}
	if s.token == "" || len(s.codes) != 3 {
		s.t.Fatalf("feedbackd demo printed no token or not three posters:\n%s", out)
	}
	s.api = client.New(s.base, s.token)
}

// start runs feedbackd serve with the wasm build in web and the extra
// serve flags, and waits until it answers /readyz.
func (s *server) start(web string, extra ...string) { s.startWith(web, extra...) }

// startWith is start with extra serve flags.
func (s *server) startWith(web string, extra ...string) {
	s.t.Helper()
	s.flags = extra
	f, err := os.OpenFile(s.log, os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o644)
	if err != nil {
		s.t.Fatal(err)
	}
	defer f.Close()
	args := append([]string{"serve", "--addr", s.addr, "--db", s.db, "--web-dir", web, "--base-url", s.base,
		"--log-level", "debug"}, extra...) // every request, for the log shown on a failure
	cmd := exec.Command(env.feedbackd, args...)
	cmd.Env = append(os.Environ(), "FEEDBACK_VISITOR_LIMIT=100000", "FEEDBACK_POSTER_LIMIT=100000", "FEEDBACK_RATE_LIMIT=100000")
	cmd.Stdout, cmd.Stderr = f, f
	if err := cmd.Start(); err != nil {
		s.t.Fatal(err)
	}
	s.cmd, s.done = cmd, make(chan struct{})
	go func(done chan struct{}) {
		_ = cmd.Wait()
		close(done)
	}(s.done)
	s.waitReady()
}

func (s *server) waitReady() {
	s.t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for {
		res, err := http.Get(s.base + "/readyz")
		if err == nil {
			res.Body.Close()
			if res.StatusCode == http.StatusOK {
				return
			}
		}
		select {
		case <-s.done:
			s.t.Fatalf("feedbackd exited before it was ready (see its log below)")
		default:
		}
		if time.Now().After(deadline) {
			s.t.Fatalf("feedbackd not ready after 30s: %v", err)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// stop kills the process, as a crash or a pulled plug would, and waits
// for it to exit.
func (s *server) stop() {
	if s.cmd == nil {
		return
	}
	_ = s.cmd.Process.Kill()
	<-s.done
	s.cmd = nil
}

// restart starts the server again on the same address and database with
// the wasm build in web and the same flags, stopping it first if it runs.
func (s *server) restart(web string) {
	s.t.Helper()
	s.stop()
	s.startWith(web, s.flags...)
}

// proxy sits between the browser and a server and can refuse the kiosk
// sync, so that a test controls when queued kiosk submissions can be
// delivered without relying on the browser's network emulation.
type proxy struct {
	base      string // http://127.0.0.1:PORT, the origin the browser uses
	blockSync atomic.Bool
}

// startProxy starts a proxy to s, closed when t ends.
func startProxy(t *testing.T, s *server) *proxy {
	t.Helper()
	target, err := url.Parse(s.base)
	if err != nil {
		t.Fatal(err)
	}
	p := &proxy{}
	forward := httputil.NewSingleHostReverseProxy(target)
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/kiosk/sync" && p.blockSync.Load() {
			http.Error(w, "the test holds the sync back", http.StatusServiceUnavailable)
			return
		}
		forward.ServeHTTP(w, r)
	}))
	t.Cleanup(ts.Close)
	p.base = ts.URL
	return p
}

// visitorURL returns the visitor page of the demo's poster for form.
func (s *server) visitorURL(form feedback.FormKind) string {
	return s.base + "/q/" + s.codes[form]
}

// hygiene returns every hygiene submission on the server.
func (s *server) hygiene() []feedback.HygieneSubmission {
	s.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	page, err := s.api.Hygiene(ctx, feedback.ListParams{Page: 1, PerPage: feedback.MaxPerPage})
	if err != nil {
		s.t.Fatalf("GET /api/v1/hygiene: %v", err)
	}
	if len(page.Data) == feedback.MaxPerPage {
		s.t.Fatalf("GET /api/v1/hygiene: %d rows fill a page; the tests read one", len(page.Data))
	}
	return page.Data
}

// hygieneIDs returns the ids of the hygiene submissions on the server.
func (s *server) hygieneIDs() map[string]bool {
	s.t.Helper()
	ids := map[string]bool{}
	for _, h := range s.hygiene() {
		ids[h.ID] = true
	}
	return ids
}

// newHygiene returns the hygiene submissions on the server that are not
// in before.
func (s *server) newHygiene(before map[string]bool) []feedback.HygieneSubmission {
	s.t.Helper()
	var fresh []feedback.HygieneSubmission
	for _, h := range s.hygiene() {
		if !before[h.ID] {
			fresh = append(fresh, h)
		}
	}
	return fresh
}

// checkNewHygiene fails the test unless exactly want hygiene submissions
// that are not in before are on the server now.
func (s *server) checkNewHygiene(before map[string]bool, want int, when string) {
	s.t.Helper()
	if fresh := s.newHygiene(before); len(fresh) != want {
		s.t.Errorf("%s: %d new hygiene submissions, want exactly %d: %+v", when, len(fresh), want, fresh)
	}
}

// waitNewHygiene polls the API until exactly want hygiene submissions
// exist that are not in before, and returns them. More than want fails
// at once: every submission must arrive exactly once.
func (s *server) waitNewHygiene(before map[string]bool, want int, timeout time.Duration) []feedback.HygieneSubmission {
	s.t.Helper()
	deadline := time.Now().Add(timeout)
	for {
		fresh := s.newHygiene(before)
		switch {
		case len(fresh) == want:
			return fresh
		case len(fresh) > want:
			s.t.Fatalf("%d new hygiene submissions, want exactly %d: %+v", len(fresh), want, fresh)
		case time.Now().After(deadline):
			s.t.Fatalf("%d new hygiene submissions after %v, want %d", len(fresh), timeout, want)
		}
		time.Sleep(250 * time.Millisecond)
	}
}

// checkDelivered fails t unless every submission of got came from source
// and their values of field are want, in any order.
func checkDelivered[T cmp.Ordered](t *testing.T, got []feedback.HygieneSubmission, source feedback.Source,
	field func(feedback.HygieneSubmission) T, want []T) {
	t.Helper()
	var values []T
	for _, h := range got {
		values = append(values, field(h))
		if h.Source != source {
			t.Errorf("submission %s has source %q, want %q", h.ID, h.Source, source)
		}
	}
	slices.Sort(values)
	want = slices.Sorted(slices.Values(want))
	if !slices.Equal(values, want) {
		t.Errorf("stored %v, want %v", values, want)
	}
}

// surveyResponses returns the responses to the demo's survey, by id.
func (s *server) surveyResponses() map[string]feedback.SurveyResponse {
	s.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	all := feedback.ListParams{Page: 1, PerPage: feedback.MaxPerPage}
	surveys, err := s.api.Surveys(ctx, all)
	if err != nil || len(surveys.Data) != 1 {
		s.t.Fatalf("GET /api/v1/surveys: %v; want the demo's one survey", err)
	}
	page, err := s.api.SurveyResponses(ctx, surveys.Data[0].ID, all)
	if err != nil {
		s.t.Fatalf("GET /api/v1/surveys/{id}/responses: %v", err)
	}
	out := map[string]feedback.SurveyResponse{}
	for _, r := range page.Data {
		out[r.ID] = r
	}
	return out
}

// locationID returns the id of the demo location named name.
func (s *server) locationID(name string) string {
	s.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	page, err := s.api.Locations(ctx, feedback.ListParams{Page: 1, PerPage: feedback.MaxPerPage})
	if err != nil {
		s.t.Fatalf("GET /api/v1/locations: %v", err)
	}
	i := slices.IndexFunc(page.Data, func(l feedback.Location) bool { return l.Name == name })
	if i < 0 {
		s.t.Fatalf("no demo location %q", name)
	}
	return page.Data[i].ID
}

// pairingCode creates a code that pairs a kiosk to the demo's hygiene
// form with timing.
func (s *server) pairingCode(timing feedback.KioskTiming) string {
	s.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	pc, err := s.api.CreatePairingCode(ctx, feedback.PairingCodeInput{LocationID: s.locationID(hygieneLocation),
		FormRef: feedback.FormRef{Form: feedback.FormHygiene}, Name: "e2e kiosk", Timing: &timing})
	if err != nil {
		s.t.Fatalf("POST /api/v1/kiosks/pairing-codes: %v", err)
	}
	return pc.Code
}

// hygieneLocation is the demo location of the hygiene poster.
const hygieneLocation = "Restroom, 1st floor"

func tail(b []byte, n int) []byte {
	if len(b) > n {
		b = b[len(b)-n:]
		if i := bytes.IndexByte(b, '\n'); i >= 0 {
			b = b[i+1:]
		}
	}
	return b
}
