package http_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net"
	"net/netip"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/feedbackhq/feedback/server"
	feedbackhttp "github.com/feedbackhq/feedback/server/http"
	"github.com/feedbackhq/feedback/server/webhook"
	"github.com/feedbackhq/feedback/shared/feedback"
)

// hookHosts answers the host names the webhook tests use, so that the
// check of a destination when a subscription is saved needs no DNS:
// public addresses for the receivers, special ones for the hosts that
// must be refused. Any other name does not resolve. Each answer is a
// fresh slice, as net.Resolver's are: the policy rewrites it in place.
type hookHosts map[string][]netip.Addr

func (h hookHosts) LookupNetIP(_ context.Context, _, host string) ([]netip.Addr, error) {
	if addrs, ok := h[strings.ToLower(strings.TrimSuffix(host, "."))]; ok {
		return slices.Clone(addrs), nil
	}
	return nil, &net.DNSError{Err: "no such host", Name: host, IsNotFound: true}
}

var testHooks = hookHosts{
	"example.com":          {netip.MustParseAddr("93.184.215.14")},
	"hooks.example.com":    {netip.MustParseAddr("93.184.215.15"), netip.MustParseAddr("2606:2800:21f:cb07:6820:80da:af6b:8b2c")},
	"e.com":                {netip.MustParseAddr("93.184.215.16")},
	"internal.example.com": {netip.MustParseAddr("10.1.2.3")},
	"mixed.example.com":    {netip.MustParseAddr("93.184.215.17"), netip.MustParseAddr("127.0.0.1")},
}

// eachHookStore is eachStore on servers that resolve webhook hosts with
// testHooks.
func eachHookStore(t *testing.T, fn func(t *testing.T, ts *TestServer)) {
	t.Helper()
	for _, kind := range storeKinds {
		t.Run(kind, func(t *testing.T) {
			t.Parallel()
			fn(t, MustOpenServer(t, kind, func(c *feedbackhttp.Config) { c.WebhookResolver = testHooks }))
		})
	}
}

// subscribe subscribes https://hooks.example.com/<events> of f's
// workspace to events and returns the subscription.
func subscribe(t *testing.T, ts *TestServer, f *fixture, events ...string) feedback.WebhookSubscription {
	t.Helper()
	var w feedback.WebhookSubscription
	ts.do(t, req{method: "POST", path: "/api/v1/webhooks", token: f.Token,
		body: map[string]any{"url": "https://hooks.example.com/" + strings.Join(events, "+"), "events": events}}).expect(t, 201, "").decode(t, &w)
	return w
}

// getWebhook reads a subscription through the API.
func getWebhook(t *testing.T, ts *TestServer, f *fixture, id string) feedback.WebhookSubscription {
	t.Helper()
	var w feedback.WebhookSubscription
	ts.do(t, req{method: "GET", path: "/api/v1/webhooks/" + id, token: f.Token}).expect(t, 200, "").decode(t, &w)
	return w
}

// patchWebhook applies body to a subscription and expects 200.
func patchWebhook(t *testing.T, ts *TestServer, f *fixture, id string, body any) feedback.WebhookSubscription {
	t.Helper()
	var w feedback.WebhookSubscription
	ts.do(t, req{method: "PATCH", path: "/api/v1/webhooks/" + id, token: f.Token, body: body}).expect(t, 200, "").decode(t, &w)
	return w
}

// listDeliveries reads a page of a subscription's deliveries.
func listDeliveries(t *testing.T, ts *TestServer, f *fixture, id, query string) feedback.Page[feedback.WebhookDelivery] {
	t.Helper()
	var p feedback.Page[feedback.WebhookDelivery]
	ts.do(t, req{method: "GET", path: "/api/v1/webhooks/" + id + "/deliveries" + query, token: f.Token}).expect(t, 200, "").decode(t, &p)
	return p
}

// ping sends a test event to a subscription and returns its delivery.
func ping(t *testing.T, ts *TestServer, f *fixture, id string) feedback.WebhookDelivery {
	t.Helper()
	var d feedback.WebhookDelivery
	ts.do(t, req{method: "POST", path: "/api/v1/webhooks/" + id + "/test", token: f.Token}).expect(t, 202, "").decode(t, &d)
	return d
}

// lastEvent returns the newest event of f's workspace once it is the
// one awaited (or the newest after 15 s, for the caller to report).
func lastEvent(t *testing.T, ts *TestServer, f *fixture, awaited func(feedback.Event) bool) feedback.Event {
	t.Helper()
	// GET /events answers an event once no older transaction can still
	// commit one before it; it waits 2 s for those, and the tests of other
	// packages, which create databases side by side on the same server,
	// can hold one longer. So ask again until the event is there.
	var last feedback.Event
	for deadline := time.Now().Add(15 * time.Second); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		var list struct {
			Data []feedback.Event `json:"data"`
		}
		ts.do(t, req{method: "GET", path: "/api/v1/events?limit=1000", token: f.Token}).expect(t, 200, "").decode(t, &list)
		if n := len(list.Data); n > 0 {
			if last = list.Data[n-1]; awaited(last) {
				break
			}
		}
	}
	return last
}

func TestWebhookCreate(t *testing.T) {
	eachHookStore(t, func(t *testing.T, ts *TestServer) {
		f := ts.newFixture(t, "Hooks")
		var w feedback.WebhookSubscription
		r := ts.do(t, req{method: "POST", path: "/api/v1/webhooks", token: f.Token,
			body: map[string]any{"url": "https://example.com/hook", "events": []string{"hygiene_submission.created", "review.status_changed"}}}).expect(t, 201, "")
		r.decode(t, &w)
		if r.Header.Get("Location") != "/api/v1/webhooks/"+w.ID || len(w.SecretPrefix) != 12 || !strings.HasPrefix(w.SecretPrefix, "whsec_") {
			t.Errorf("created %+v, Location %q", w, r.Header.Get("Location"))
		}
		if now := ts.Clock.Now(); !w.CreatedAt.Equal(now) || !w.UpdatedAt.Equal(now) || w.DisabledAt != nil || w.DisabledReason != "" {
			t.Errorf("a new subscription is %+v; want created and updated now, enabled", w)
		}
		stored, err := ts.Store.Webhook(context.Background(), f.ID, w.ID)
		if err != nil {
			t.Fatal(err)
		}
		plain, err := ts.Keys.Open(stored.Secret, webhook.SecretAAD(f.ID, w.ID))
		if err != nil || !feedback.ValidSecret(string(plain)) || !strings.HasPrefix(string(plain), w.SecretPrefix) {
			t.Fatalf("stored secret opens to %q, %v", plain, err)
		}
		if strings.Contains(string(stored.Secret), string(plain[6:])) {
			t.Error("the secret is stored in the clear")
		}
		for _, path := range []string{"/api/v1/webhooks", "/api/v1/webhooks/" + w.ID} {
			if b := ts.do(t, req{method: "GET", path: path, token: f.Token}).expect(t, 200, "").Body; strings.Contains(string(b), string(plain[6:])) {
				t.Errorf("GET %s shows the secret: %s", path, b)
			}
		}
		own := "whsec_" + strings.Repeat("QUJD", 8) // base64 of 24 bytes
		ts.do(t, req{method: "POST", path: "/api/webhooks", token: f.Token,
			body: map[string]any{"url": "https://example.com/own", "events": []string{"*"}, "secret": own}}).expect(t, 201, "").decode(t, &w)
		if w.SecretPrefix != own[:12] || len(w.Events) != 1 || w.Events[0] != "*" {
			t.Errorf("own secret: %+v", w)
		}
		ts.do(t, req{method: "DELETE", path: "/api/v1/webhooks/" + w.ID, token: f.Token}).expect(t, 204, "")
		ts.do(t, req{method: "GET", path: "/api/v1/webhooks/" + w.ID, token: f.Token}).expect(t, 404, feedback.ENotFound)
		runScenarios(t, ts, f, []scenario{
			{name: "unknown events", method: "POST", path: "/webhooks", body: map[string]any{"url": "https://e.com", "events": []string{"order.paid", "hygiene_submission.created", "x"}},
				status: 422, code: feedback.EValidation, params: []string{"events"}},
			{name: "no events", method: "POST", path: "/webhooks", body: map[string]any{"url": "https://e.com", "events": []string{}}, status: 422, code: feedback.EValidation, params: []string{"events"}},
			{name: "plain http", method: "POST", path: "/webhooks", body: map[string]any{"url": "http://e.com/h", "events": []string{"*"}}, status: 422, code: feedback.EValidation, params: []string{"url"}},
			{name: "ftp", method: "POST", path: "/webhooks", body: map[string]any{"url": "ftp://e.com/h", "events": []string{"*"}}, status: 422, code: feedback.EValidation, params: []string{"url"}},
			{name: "userinfo", method: "POST", path: "/webhooks", body: map[string]any{"url": "https://u:p@e.com/h", "events": []string{"*"}}, status: 422, code: feedback.EValidation, params: []string{"url"}},
			{name: "relative", method: "POST", path: "/webhooks", body: map[string]any{"url": "/hook", "events": []string{"*"}}, status: 422, code: feedback.EValidation, params: []string{"url"}},
			{name: "bad secret", method: "POST", path: "/webhooks", body: map[string]any{"url": "https://e.com", "events": []string{"*"}, "secret": "hunter2"}, status: 422, code: feedback.EValidation, params: []string{"secret"}},
			{name: "private host", method: "POST", path: "/webhooks", body: map[string]any{"url": "https://internal.example.com/h", "events": []string{"*"}}, status: 422, code: feedback.EValidation, params: []string{"url"}},
			{name: "unresolvable host", method: "POST", path: "/webhooks", body: map[string]any{"url": "https://nowhere.example.com/h", "events": []string{"*"}}, status: 422, code: feedback.EValidation, params: []string{"url"}},
		})
		var problem feedback.Problem
		ts.do(t, req{method: "POST", path: "/api/v1/webhooks", token: f.Token,
			body: map[string]any{"url": "https://e.com", "events": []string{"order.paid", "x"}}}).decode(t, &problem)
		if !strings.Contains(problem.InvalidParams[0].Reason, "order.paid, x") {
			t.Errorf("the problem does not name the unknown events: %+v", problem)
		}
	})
}

func TestWebhookAllowList(t *testing.T) {
	ts := MustOpenServer(t, "sqlite", func(c *feedbackhttp.Config) {
		c.WebhookAllow = []netip.Prefix{netip.MustParsePrefix("127.0.0.0/8")}
	})
	f := ts.newFixture(t, "Allow")
	ts.do(t, req{method: "POST", path: "/api/v1/webhooks", token: f.Token,
		body: map[string]any{"url": "http://127.0.0.1:9999/hook", "events": []string{"*"}}}).expect(t, 201, "")
	ts.do(t, req{method: "POST", path: "/api/v1/webhooks", token: f.Token,
		body: map[string]any{"url": "http://10.0.0.1/hook", "events": []string{"*"}}}).expect(t, 422, feedback.EValidation)
}

func TestWebhookUpdate(t *testing.T) {
	eachHookStore(t, func(t *testing.T, ts *TestServer) {
		ctx := context.Background()
		f, other := ts.newFixture(t, "Patch"), ts.newFixture(t, "Elsewhere")
		created := subscribe(t, ts, f, "*")
		id := created.ID
		path := "/webhooks/" + id
		stored, err := ts.Store.Webhook(ctx, f.ID, id)
		if err != nil {
			t.Fatal(err)
		}
		first, err := ts.Keys.Open(stored.Secret, webhook.SecretAAD(f.ID, id))
		if err != nil {
			t.Fatal(err)
		}

		t.Run("url", func(t *testing.T) {
			ts.Clock.Add(time.Minute)
			w := patchWebhook(t, ts, f, id, map[string]any{"url": "https://example.com/v2"})
			if w.URL != "https://example.com/v2" || !w.UpdatedAt.Equal(ts.Clock.Now()) || !w.CreatedAt.Equal(created.CreatedAt.Time) ||
				w.SecretPrefix != created.SecretPrefix || !cmp.Equal(w.Events, created.Events) {
				t.Errorf("after a new url: %+v; created %+v", w, created)
			}
			if got := getWebhook(t, ts, f, id); !cmp.Equal(got, w) {
				t.Errorf("GET answers %+v; PATCH answered %+v", got, w)
			}
		})

		t.Run("events", func(t *testing.T) {
			w := patchWebhook(t, ts, f, id, map[string]any{"events": []string{
				feedback.EventReviewStatusChanged, feedback.EventHygieneSubmissionCreated, feedback.EventReviewStatusChanged}})
			if want := []string{feedback.EventReviewStatusChanged, feedback.EventHygieneSubmissionCreated}; !cmp.Equal(w.Events, want) {
				t.Errorf("events %v; want %v", w.Events, want)
			}
		})

		t.Run("secret rotation", func(t *testing.T) {
			ts.Clock.Add(time.Minute)
			own := "whsec_" + strings.Repeat("WFla", 10) // base64 of 30 bytes
			w := patchWebhook(t, ts, f, id, map[string]any{"secret": own})
			if w.SecretPrefix != own[:12] || w.SecretPrefix == created.SecretPrefix {
				t.Errorf("secret_prefix %q after rotating to %q (was %q)", w.SecretPrefix, own[:12], created.SecretPrefix)
			}
			if strings.Contains(string(ts.do(t, req{method: "GET", path: "/api/v1" + path, token: f.Token}).Body), own[6:]) {
				t.Error("GET shows the new secret")
			}
			s, err := ts.Store.Webhook(ctx, f.ID, id)
			if err != nil {
				t.Fatal(err)
			}
			aad := webhook.SecretAAD(f.ID, id)
			cur, err1 := ts.Keys.Open(s.Secret, aad)
			prev, err2 := ts.Keys.Open(s.PreviousSecret, aad)
			if err1 != nil || err2 != nil || string(cur) != own || string(prev) != string(first) {
				t.Errorf("after a rotation the secret opens to %q (%v) and the previous one to %q (%v); want %q and %q",
					cur, err1, prev, err2, own, first)
			}
			if until := ts.Clock.Now().Add(feedback.SecretOverlap); s.PreviousSecretUntil == nil || !s.PreviousSecretUntil.Equal(until) {
				t.Errorf("the previous secret signs until %v; want %v (24 h)", s.PreviousSecretUntil, until)
			}
		})

		t.Run("disable and enable", func(t *testing.T) {
			ts.Clock.Add(time.Minute)
			off := ts.Clock.Now()
			w := patchWebhook(t, ts, f, id, map[string]any{"enabled": false})
			if w.DisabledAt == nil || !w.DisabledAt.Equal(off) || w.DisabledReason != "disabled through the API" || !w.UpdatedAt.Equal(off) {
				t.Errorf("after enabled false: disabled_at %v, reason %q, updated_at %v; want %v", w.DisabledAt, w.DisabledReason, w.UpdatedAt, off)
			}
			ts.Clock.Add(time.Minute)
			if w := patchWebhook(t, ts, f, id, map[string]any{"enabled": false}); w.DisabledAt == nil || !w.DisabledAt.Equal(off) {
				t.Errorf("disabling again moved disabled_at to %v; want the first time %v", w.DisabledAt, off)
			}
			if got := getWebhook(t, ts, f, id); got.DisabledAt == nil || got.DisabledReason == "" {
				t.Errorf("GET after disabling: %+v", got)
			}
			w = patchWebhook(t, ts, f, id, map[string]any{"enabled": true})
			if w.DisabledAt != nil || w.DisabledReason != "" {
				t.Errorf("after enabled true: disabled_at %v, reason %q; want null and empty", w.DisabledAt, w.DisabledReason)
			}
			// null fields are left unchanged, as long as one field changes.
			if w2 := patchWebhook(t, ts, f, id, map[string]any{"url": nil, "events": nil, "secret": nil, "enabled": true}); w2.URL != w.URL || w2.DisabledAt != nil {
				t.Errorf("nulls changed the subscription: %+v", w2)
			}
		})

		t.Run("refused", func(t *testing.T) {
			before := getWebhook(t, ts, f, id)
			ts.Clock.Add(time.Minute)
			runScenarios(t, ts, f, []scenario{
				{name: "private host", method: "PATCH", path: path, body: map[string]any{"url": "https://internal.example.com/h"}, status: 422, code: feedback.EValidation, params: []string{"url"}},
				{name: "public and loopback", method: "PATCH", path: path, body: map[string]any{"url": "https://mixed.example.com/h"}, status: 422, code: feedback.EValidation, params: []string{"url"}},
				{name: "private literal", method: "PATCH", path: path, body: map[string]any{"url": "https://10.0.0.1/h"}, status: 422, code: feedback.EValidation, params: []string{"url"}},
				{name: "metadata address", method: "PATCH", path: path, body: map[string]any{"url": "https://169.254.169.254/latest"}, status: 422, code: feedback.EValidation, params: []string{"url"}},
				{name: "unresolvable", method: "PATCH", path: path, body: map[string]any{"url": "https://nowhere.example.com/h"}, status: 422, code: feedback.EValidation, params: []string{"url"}},
				{name: "plain http", method: "PATCH", path: path, body: map[string]any{"url": "http://example.com/h"}, status: 422, code: feedback.EValidation, params: []string{"url"}},
				{name: "ftp", method: "PATCH", path: path, body: map[string]any{"url": "ftp://example.com/h"}, status: 422, code: feedback.EValidation, params: []string{"url"}},
				{name: "no events", method: "PATCH", path: path, body: map[string]any{"events": []string{}}, status: 422, code: feedback.EValidation, params: []string{"events"}},
				{name: "unknown events", method: "PATCH", path: path, body: map[string]any{"events": []string{"order.paid"}}, status: 422, code: feedback.EValidation, params: []string{"events"}},
				{name: "bad secret", method: "PATCH", path: path, body: map[string]any{"secret": "hunter2"}, status: 422, code: feedback.EValidation, params: []string{"secret"}},
				{name: "enabled not a boolean", method: "PATCH", path: path, body: map[string]any{"enabled": "yes"}, status: 422, code: feedback.EValidation, params: []string{"enabled"}},
				{name: "unknown field", method: "PATCH", path: path, body: map[string]any{"enabled": true, "colour": "red"}, status: 422, code: feedback.EValidation, params: []string{"colour"}},
				{name: "good and bad", method: "PATCH", path: path, body: map[string]any{"url": "https://example.com/v3", "events": []string{"x"}}, status: 422, code: feedback.EValidation, params: []string{"events"}},
				{name: "empty", method: "PATCH", path: path, body: map[string]any{}, status: 422, code: feedback.EValidation},
				{name: "only nulls", method: "PATCH", path: path, body: map[string]any{"url": nil, "enabled": nil}, status: 422, code: feedback.EValidation},
				{name: "not json", method: "PATCH", path: path, raw: "{", ctype: "application/json", status: 400, code: feedback.EMalformedBody},
				{name: "form data", method: "PATCH", path: path, raw: "enabled=false", ctype: "application/x-www-form-urlencoded", status: 415, code: feedback.EUnsupportedMediaType},
				{name: "too large", method: "PATCH", path: path, raw: `{"url":"https://example.com/` + strings.Repeat("x", 1<<20) + `"}`, ctype: "application/json", status: 413, code: feedback.EPayloadTooLarge},
				{name: "query", method: "PATCH", path: path + "?dry_run=1", body: map[string]any{"enabled": false}, status: 400, code: feedback.EInvalidParameter},
				{name: "unknown id", method: "PATCH", path: "/webhooks/" + feedback.NewID(), body: map[string]any{"enabled": false}, status: 404, code: feedback.ENotFound},
				{name: "malformed id", method: "PATCH", path: "/webhooks/42", body: map[string]any{"enabled": false}, status: 404, code: feedback.ENotFound},
			})
			if after := getWebhook(t, ts, f, id); !cmp.Equal(after, before) {
				t.Errorf("refused updates changed the subscription (-before +after):\n%s", cmp.Diff(before, after))
			}
			s, err := ts.Store.Webhook(ctx, f.ID, id)
			if err != nil {
				t.Fatal(err)
			}
			if cur, err := ts.Keys.Open(s.Secret, webhook.SecretAAD(f.ID, id)); err != nil || !strings.HasPrefix(string(cur), before.SecretPrefix) {
				t.Errorf("refused updates changed the secret: %q, %v", cur, err)
			}
		})

		t.Run("another workspace", func(t *testing.T) {
			before := getWebhook(t, ts, f, id)
			ts.do(t, req{method: "PATCH", path: "/api/v1" + path, token: other.Token, body: map[string]any{"enabled": false}}).expect(t, 404, feedback.ENotFound)
			ts.do(t, req{method: "PATCH", path: "/api" + path, token: other.Token, body: map[string]any{"url": "https://example.com/stolen"}}).expect(t, 404, feedback.ENotFound)
			if after := getWebhook(t, ts, f, id); !cmp.Equal(after, before) {
				t.Errorf("another workspace changed the subscription (-before +after):\n%s", cmp.Diff(before, after))
			}
		})
	})
}

func TestWebhookTest(t *testing.T) {
	eachHookStore(t, func(t *testing.T, ts *TestServer) {
		f, other := ts.newFixture(t, "Ping"), ts.newFixture(t, "Pong")
		w := subscribe(t, ts, f, feedback.EventHygieneSubmissionCreated)
		all := subscribe(t, ts, f, "*")
		ts.Clock.Add(time.Second)
		now := ts.Clock.Now()

		d := ping(t, ts, f, w.ID)
		if d.WebhookID != w.ID || d.EventType != feedback.EventWebhookTest || d.Status != feedback.DeliveryPending || d.Attempts != 0 ||
			d.NextAttemptAt == nil || !d.NextAttemptAt.Equal(now) || !d.CreatedAt.Equal(now) || d.DeliveredAt != nil ||
			d.LastStatusCode != 0 || d.LastError != "" || d.AttemptLog == nil || len(d.AttemptLog) != 0 {
			t.Errorf("POST /test answered %+v; want a pending webhook.test delivery due now", d)
		}
		e := lastEvent(t, ts, f, func(e feedback.Event) bool { return e.ID == d.EventID })
		var data struct {
			WebhookID string `json:"webhook_id"`
			Message   string `json:"message"`
		}
		if err := json.Unmarshal(e.Data, &data); err != nil || e.Type != feedback.EventWebhookTest || e.ID != d.EventID || data.WebhookID != w.ID || data.Message == "" {
			t.Errorf("the event of the test is %+v (data %s, %v); want webhook.test %s for %s", e, e.Data, err, d.EventID, w.ID)
		}
		p := listDeliveries(t, ts, f, w.ID, "")
		if p.Meta.Total != 1 || len(p.Data) != 1 || !cmp.Equal(p.Data[0], d) {
			t.Errorf("the deliveries are %+v; want just %+v", p, d)
		}
		if p := listDeliveries(t, ts, f, all.ID, ""); p.Meta.Total != 0 || len(p.Data) != 0 {
			t.Errorf("a test of another subscription reached %s: %+v", all.ID, p.Data)
		}
		var again feedback.WebhookDelivery
		ts.do(t, req{method: "POST", path: "/api/webhooks/" + w.ID + "/test", token: f.Token}).expect(t, 202, "").decode(t, &again)
		if again.ID == d.ID || again.EventID == d.EventID {
			t.Errorf("a second test reused the delivery or event: %+v, %+v", again, d)
		}

		ts.do(t, req{method: "POST", path: "/api/v1/webhooks/" + w.ID + "/test?x=1", token: f.Token}).expect(t, 400, feedback.EInvalidParameter)
		ts.do(t, req{method: "POST", path: "/api/v1/webhooks/" + feedback.NewID() + "/test", token: f.Token}).expect(t, 404, feedback.ENotFound)
		ts.do(t, req{method: "POST", path: "/api/v1/webhooks/42/test", token: f.Token}).expect(t, 404, feedback.ENotFound)
		ts.do(t, req{method: "POST", path: "/api/v1/webhooks/" + w.ID + "/test", token: other.Token}).expect(t, 404, feedback.ENotFound)
		ts.do(t, req{method: "POST", path: "/api/v1/webhooks/" + w.ID + "/test"}).expect(t, 401, feedback.EUnauthenticated)

		patchWebhook(t, ts, f, w.ID, map[string]any{"enabled": false})
		ts.do(t, req{method: "POST", path: "/api/v1/webhooks/" + w.ID + "/test", token: f.Token}).expect(t, 409, feedback.EConflict)
		if p := listDeliveries(t, ts, f, w.ID, ""); p.Meta.Total != 2 {
			t.Errorf("a refused test queued a delivery: %d deliveries, want 2", p.Meta.Total)
		}
		patchWebhook(t, ts, f, w.ID, map[string]any{"enabled": true})
		ping(t, ts, f, w.ID)
	})
}

func TestWebhookDeliveries(t *testing.T) {
	eachHookStore(t, func(t *testing.T, ts *TestServer) {
		f, other := ts.newFixture(t, "Fanout"), ts.newFixture(t, "Quiet")
		all := subscribe(t, ts, f, "*")
		hyg := subscribe(t, ts, f, feedback.EventHygieneSubmissionCreated, feedback.EventReviewStatusChanged)
		reviews := subscribe(t, ts, f, feedback.EventReviewResponseCreated)
		off := subscribe(t, ts, f, feedback.EventHygieneSubmissionCreated)
		patchWebhook(t, ts, f, off.ID, map[string]any{"enabled": false})
		elsewhere := subscribe(t, ts, other, "*")

		ts.Clock.Add(time.Second)
		body := map[string]any{"id": feedback.NewID(), "rating": 2, "tags": []string{"no_soap"}}
		var h feedback.HygieneSubmission
		submit(t, ts, f.Hygiene.Code, body).expect(t, 201, "").decode(t, &h)
		submit(t, ts, f.Hygiene.Code, body).expect(t, 200, "") // a repeat stores nothing, so sends nothing
		e := lastEvent(t, ts, f, func(e feedback.Event) bool { return strings.Contains(string(e.Data), h.ID) })
		if e.Type != feedback.EventHygieneSubmissionCreated {
			t.Fatalf("the last event is %s; want %s", e.Type, feedback.EventHygieneSubmissionCreated)
		}

		ids := map[string]bool{}
		for _, w := range []feedback.WebhookSubscription{all, hyg} {
			p := listDeliveries(t, ts, f, w.ID, "")
			if p.Meta.Total != 1 || len(p.Data) != 1 {
				t.Errorf("%v: %d deliveries of the submission; want exactly 1: %+v", w.Events, p.Meta.Total, p.Data)
				continue
			}
			d := p.Data[0]
			if d.WebhookID != w.ID || d.EventID != e.ID || d.EventType != e.Type || d.Status != feedback.DeliveryPending ||
				d.Attempts != 0 || d.NextAttemptAt == nil || !d.NextAttemptAt.Equal(h.CreatedAt.Time) || !d.CreatedAt.Equal(h.CreatedAt.Time) {
				t.Errorf("%v: delivery %+v; want event %s pending, due at %v", w.Events, d, e.ID, h.CreatedAt)
			}
			ids[d.ID] = true
		}
		if len(ids) != 2 {
			t.Errorf("the two subscriptions share a delivery id: %v", ids)
		}
		for _, w := range []feedback.WebhookSubscription{reviews, off} {
			if p := listDeliveries(t, ts, f, w.ID, ""); p.Meta.Total != 0 || len(p.Data) != 0 {
				t.Errorf("%v (disabled %v) got deliveries: %+v", w.Events, w.ID == off.ID, p.Data)
			}
		}
		if p := listDeliveries(t, ts, other, elsewhere.ID, ""); p.Meta.Total != 0 {
			t.Errorf("a subscription of another workspace got deliveries: %+v", p.Data)
		}

		// The log of one subscription, newest first, page by page.
		var want []string
		for range 4 {
			ts.Clock.Add(time.Second)
			want = append([]string{ping(t, ts, f, hyg.ID).ID}, want...)
		}
		want = append(want, listDeliveries(t, ts, f, hyg.ID, "").Data[4].ID) // the submission's, oldest
		var seen []string
		for page := 1; page <= 4; page++ {
			p := listDeliveries(t, ts, f, hyg.ID, fmt.Sprintf("?per_page=2&page=%d", page))
			if diff := cmp.Diff(feedback.Meta{Total: 5, Page: page, PerPage: 2, Pages: 3}, p.Meta); diff != "" {
				t.Errorf("page %d meta (-want +got):\n%s", page, diff)
			}
			if wantLen := []int{2, 2, 1, 0}[page-1]; len(p.Data) != wantLen || p.Data == nil {
				t.Errorf("page %d has %d deliveries (nil %v); want %d", page, len(p.Data), p.Data == nil, wantLen)
			}
			for _, d := range p.Data {
				seen = append(seen, d.ID)
			}
		}
		if diff := cmp.Diff(want, seen); diff != "" {
			t.Errorf("paging does not walk the log newest first (-want +got):\n%s", diff)
		}
		var viaAlias feedback.Page[feedback.WebhookDelivery]
		ts.do(t, req{method: "GET", path: "/api/webhooks/" + hyg.ID + "/deliveries?page=1000000", token: f.Token}).expect(t, 200, "").decode(t, &viaAlias)
		if len(viaAlias.Data) != 0 || viaAlias.Meta.Total != 5 {
			t.Errorf("a far page: %+v", viaAlias)
		}

		for _, q := range []string{"per_page=500", "page=0", "from=2026-01-01", "location_id=" + f.Location.ID} {
			ts.do(t, req{method: "GET", path: "/api/v1/webhooks/" + hyg.ID + "/deliveries?" + q, token: f.Token}).expect(t, 400, feedback.EInvalidParameter)
		}
		ts.do(t, req{method: "GET", path: "/api/v1/webhooks/" + feedback.NewID() + "/deliveries", token: f.Token}).expect(t, 404, feedback.ENotFound)
		ts.do(t, req{method: "GET", path: "/api/v1/webhooks/42/deliveries", token: f.Token}).expect(t, 404, feedback.ENotFound)
		ts.do(t, req{method: "GET", path: "/api/v1/webhooks/" + hyg.ID + "/deliveries", token: other.Token}).expect(t, 404, feedback.ENotFound)
		ts.do(t, req{method: "DELETE", path: "/api/v1/webhooks/" + hyg.ID, token: f.Token}).expect(t, 204, "")
		ts.do(t, req{method: "GET", path: "/api/v1/webhooks/" + hyg.ID + "/deliveries", token: f.Token}).expect(t, 404, feedback.ENotFound)
	})
}

// attempt records one attempt of every due delivery as a dispatcher
// would, with outcome o, and returns how many there were.
func attempt(t *testing.T, ts *TestServer, status int, o server.Outcome) int {
	t.Helper()
	ctx := context.Background()
	claimed, err := ts.Store.ClaimDeliveries(ctx, "test-worker", time.Minute, 100)
	if err != nil {
		t.Fatal(err)
	}
	for i := range claimed {
		d := &claimed[i]
		a := feedback.DeliveryAttempt{N: d.Attempts + 1, At: feedback.NewTime(ts.Clock.Now()), StatusCode: status, DurationMS: 12}
		if o.Status != feedback.DeliverySucceeded {
			a.Error = fmt.Sprintf("answered %d: no", status)
		}
		if o.Status == feedback.DeliveryPending {
			next := feedback.NewTime(o.NextAttempt)
			a.NextAttemptAt = &next
		}
		if err := ts.Store.FinishAttempt(ctx, "test-worker", d, a, o); err != nil {
			t.Fatal(err)
		}
	}
	return len(claimed)
}

func TestWebhookRedeliver(t *testing.T) {
	eachHookStore(t, func(t *testing.T, ts *TestServer) {
		f, other := ts.newFixture(t, "Again"), ts.newFixture(t, "Other")
		w := subscribe(t, ts, f, "*")
		sibling := subscribe(t, ts, f, "*")
		foreign := subscribe(t, ts, other, "*")

		refused := ping(t, ts, f, w.ID)
		if n := attempt(t, ts, 400, server.Outcome{Status: feedback.DeliveryFailed}); n != 1 {
			t.Fatalf("%d deliveries were due; want the test's", n)
		}
		ok := ping(t, ts, f, w.ID)
		if n := attempt(t, ts, 204, server.Outcome{Status: feedback.DeliverySucceeded}); n != 1 {
			t.Fatalf("%d deliveries were due; want the second test's", n)
		}
		ts.Clock.Add(time.Minute)
		retrying := ping(t, ts, f, w.ID)
		retryAt := ts.Clock.Now().Add(5 * time.Second)
		attempt(t, ts, 503, server.Outcome{Status: feedback.DeliveryPending, NextAttempt: retryAt})

		log := listDeliveries(t, ts, f, w.ID, "")
		byID := map[string]feedback.WebhookDelivery{}
		for _, d := range log.Data {
			byID[d.ID] = d
		}
		if d := byID[refused.ID]; d.Status != feedback.DeliveryFailed || d.Attempts != 1 || d.NextAttemptAt != nil || d.LastStatusCode != 400 ||
			d.LastError == "" || len(d.AttemptLog) != 1 || d.AttemptLog[0].StatusCode != 400 || d.AttemptLog[0].NextAttemptAt != nil {
			t.Errorf("the refused delivery is %+v", d)
		}
		if d := byID[ok.ID]; d.Status != feedback.DeliverySucceeded || d.DeliveredAt == nil || d.NextAttemptAt != nil || d.LastError != "" {
			t.Errorf("the delivered one is %+v", d)
		}
		if d := byID[retrying.ID]; d.Status != feedback.DeliveryPending || d.NextAttemptAt == nil || !d.NextAttemptAt.Equal(retryAt) ||
			len(d.AttemptLog) != 1 || d.AttemptLog[0].NextAttemptAt == nil || !d.AttemptLog[0].NextAttemptAt.Equal(retryAt) {
			t.Errorf("the retrying one is %+v; want pending until %v", d, retryAt)
		}

		redeliver := func(t *testing.T, token, webhookID, deliveryID string) *result {
			t.Helper()
			return ts.do(t, req{method: "POST", path: "/api/v1/webhooks/" + webhookID + "/deliveries/" + deliveryID + "/redeliver", token: token})
		}
		for _, before := range []feedback.WebhookDelivery{byID[refused.ID], byID[ok.ID], byID[retrying.ID]} {
			ts.Clock.Add(time.Hour)
			var d feedback.WebhookDelivery
			redeliver(t, f.Token, w.ID, before.ID).expect(t, 202, "").decode(t, &d)
			if d.ID != before.ID || d.EventID != before.EventID || d.Status != feedback.DeliveryPending || d.NextAttemptAt == nil ||
				!d.NextAttemptAt.Equal(ts.Clock.Now()) || d.Attempts != before.Attempts || !cmp.Equal(d.AttemptLog, before.AttemptLog) {
				t.Errorf("redelivering %+v answered %+v; want the same delivery pending and due now", before, d)
			}
		}
		if n := attempt(t, ts, 500, server.Outcome{Status: feedback.DeliveryFailed}); n != 3 {
			t.Errorf("%d deliveries were due after redelivering 3", n)
		}
		var d feedback.WebhookDelivery
		ts.do(t, req{method: "POST", path: "/api/webhooks/" + w.ID + "/deliveries/" + refused.ID + "/redeliver", token: f.Token}).expect(t, 202, "").decode(t, &d)
		if d.Attempts != 2 || len(d.AttemptLog) != 2 || d.AttemptLog[1].N != 2 || d.Status != feedback.DeliveryPending {
			t.Errorf("a second redelivery answered %+v; want the log of both attempts kept", d)
		}

		siblings := ping(t, ts, f, sibling.ID)
		foreigns := ping(t, ts, other, foreign.ID)
		for _, tt := range []struct {
			name                     string
			token, webhook, delivery string
		}{
			{"unknown delivery", f.Token, w.ID, feedback.NewID()},
			{"malformed delivery", f.Token, w.ID, "42"},
			{"another subscription's delivery", f.Token, w.ID, siblings.ID},
			{"unknown subscription", f.Token, feedback.NewID(), refused.ID},
			{"another workspace's delivery", f.Token, foreign.ID, foreigns.ID},
			{"by another workspace", other.Token, w.ID, refused.ID},
		} {
			t.Run(tt.name, func(t *testing.T) {
				redeliver(t, tt.token, tt.webhook, tt.delivery).expect(t, 404, feedback.ENotFound)
			})
		}
		ts.do(t, req{method: "POST", path: "/api/v1/webhooks/" + w.ID + "/deliveries/" + refused.ID + "/redeliver?now=1", token: f.Token}).expect(t, 400, feedback.EInvalidParameter)

		attempt(t, ts, 400, server.Outcome{Status: feedback.DeliveryFailed})
		patchWebhook(t, ts, f, w.ID, map[string]any{"enabled": false})
		before := listDeliveries(t, ts, f, w.ID, "")
		redeliver(t, f.Token, w.ID, refused.ID).expect(t, 409, feedback.EConflict)
		if after := listDeliveries(t, ts, f, w.ID, ""); !cmp.Equal(after, before) {
			t.Errorf("a refused redelivery changed the log (-before +after):\n%s", cmp.Diff(before, after))
		}
		patchWebhook(t, ts, f, w.ID, map[string]any{"enabled": true})
		redeliver(t, f.Token, w.ID, refused.ID).expect(t, 202, "")
	})
}
