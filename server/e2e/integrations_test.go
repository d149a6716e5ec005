package e2e_test

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/feedbackhq/feedback/server/webhook"
	"github.com/feedbackhq/feedback/shared/client"
	"github.com/feedbackhq/feedback/shared/feedback"
)

// The Integrations pages of the demo workspace.
const (
	tokensPage   = demoDashboard + "integrations/tokens"
	webhooksPage = demoDashboard + "integrations/webhooks"
)

// TestIntegrations manages API tokens and webhooks in Settings >
// Integrations as a platform owner would: create a token, copy its value
// from the page and read the API with it, revoke it and see the API
// refuse it; create a webhook to a receiver of the test, send a test
// event from the page and see its delivery, signed with the secret the
// page showed, in the page's log and at the receiver, then redeliver it,
// rotate the secret, disable, enable and delete the webhook. Each page
// passes axe-core and fits a phone.
func TestIntegrations(t *testing.T) {
	needBrowser(t)
	axe := axeScript(t)
	t.Parallel()
	rcv := startReceiver(t)
	s := startSignInServer(t, "--webhook-allow", "127.0.0.0/8") // the receiver is on the loopback, over http
	b := newBrowser(t)
	b.do(chromedp.EmulateViewport(1280, 800))
	b.do(chromedp.Navigate(s.base + "/auth/login?return_to=" + tokensPage))
	providerLogin(b)
	b.waitFor("the tokens page", `document.getElementById("token-name") && document.title.startsWith("API tokens")`, 60*time.Second)
	b.waitFor("the demo's token", `document.querySelector("#tokens tbody th")?.textContent === "demo"`, 10*time.Second)
	checkA11y(t, b, axe, "tokens")

	value := createToken(t, b, "e2e export")
	checkA11y(t, b, axe, "tokens, a value shown once")
	snap(t, b, "tokens-created-1280")
	if got := hygieneStatus(t, s, value); got != http.StatusOK {
		t.Fatalf("GET /api/v1/hygiene with the token from the page: %d, want 200", got)
	}
	revokeToken(t, b, axe, "e2e export")
	if got := hygieneStatus(t, s, value); got != http.StatusUnauthorized {
		t.Fatalf("GET /api/v1/hygiene with the revoked token: %d, want 401", got)
	}
	if got := hygieneStatus(t, s, s.token); got != http.StatusOK {
		t.Fatalf("GET /api/v1/hygiene with the demo's token, which the page listed but was not asked to revoke: %d, want 200", got)
	}
	snap(t, b, "tokens-revoked-1280")

	b.do(chromedp.Click(chromedp.ID("nav-webhooks")))
	b.waitFor("the webhooks page", `document.getElementById("webhook-url")`, 30*time.Second)
	b.waitText("This workspace has no webhook yet.", 10*time.Second)
	checkA11y(t, b, axe, "webhooks, none yet")
	refuseWebhook(t, b, "http://10.0.0.1/hook")
	checkA11y(t, b, axe, "webhooks, a refusal")
	snap(t, b, "webhooks-refused-1280")
	b.do(chromedp.Evaluate[chromedp.Void](`document.getElementById("webhook-url").value = ""`), chromedp.Click(chromedp.ID("event-all")))
	url := rcv.url + "/hook"
	secret := createWebhook(t, b, url)
	checkA11y(t, b, axe, "webhooks, a secret shown once")
	pingWebhook(t, b, rcv, url, secret)
	checkA11y(t, b, axe, "webhooks, the delivery log")
	snap(t, b, "webhooks-log-1280")
	redeliver(t, b, rcv)
	rotateSecret(t, b, rcv, url, secret)
	b.do(chromedp.Click(chromedp.CSS(`button[aria-label="Disable ` + url + `"]`)))
	b.waitFor("the webhook disabled", `document.querySelector(".webhook .state-off")?.textContent.includes("disabled through the API")`, 20*time.Second)

	b.phone()
	for _, page := range []string{tokensPage, webhooksPage} {
		b.do(chromedp.Navigate(s.base + page))
		b.waitWasm()
		b.waitFor("the list on "+page, `document.querySelector("#tokens tbody tr, #webhooks li")`, 30*time.Second)
		if page == webhooksPage {
			b.do(chromedp.Click(chromedp.CSS(`button[aria-label="Show the delivery log of ` + url + `"]`)))
			b.waitFor("the log", `document.querySelectorAll("#deliveries .delivery").length === 2`, 20*time.Second)
		}
		checkFits(t, b, page+" (390 px)")
		checkA11y(t, b, axe, page+" (390 px)")
		snap(t, b, filepath.Base(page)+"-390")
	}

	b.do(chromedp.Click(chromedp.CSS(`button[aria-label="Enable ` + url + `"]`)))
	b.waitFor("the webhook enabled", `document.querySelector(".webhook .state-on")?.textContent === "Enabled"`, 20*time.Second)
	pageLog(t, b, s, url)
	b.do(chromedp.Click(chromedp.CSS(`button[aria-label="Delete the webhook to ` + url + `"]`)))
	b.waitFor("the question", `document.activeElement?.id === "confirm-delete-q"`, 5*time.Second)
	checkA11y(t, b, axe, "webhooks, deletion asked (390 px)")
	b.do(chromedp.Click(chromedp.ID("confirm-delete-yes")))
	b.waitText("Deleted the webhook to "+url+".", 20*time.Second)
	b.waitFor("the list empty", `!document.querySelector("#webhooks li") && !document.getElementById("delivery-log")`, 10*time.Second)
}

// createToken creates a token named name in the page and returns the
// value the page shows once.
func createToken(t *testing.T, b *browser, name string) string {
	t.Helper()
	b.do(chromedp.SendKeys(chromedp.ID("token-name"), name), chromedp.Click(chromedp.ID("token-create")))
	b.waitFor("the new token's value", `document.getElementById("new-token-value")?.value.startsWith("fbk_")`, 20*time.Second)
	b.waitText("it will not be shown again", 5*time.Second)
	b.waitFor("the token in the list", `document.querySelector("#tokens tbody th")?.textContent === `+jsString(name), 5*time.Second)
	value := eval[string](b, `document.getElementById("new-token-value").value`)
	if !tokenPattern.MatchString(value) || len(value) != 44 {
		t.Fatalf("the page shows the token value %q, want fbk_ and 40 characters", value)
	}
	return value
}

// revokeToken revokes the token name in the page, which asks first.
func revokeToken(t *testing.T, b *browser, axe, name string) {
	t.Helper()
	b.do(chromedp.Click(chromedp.CSS(`button[aria-label="Revoke the token ` + name + `"]`)))
	b.waitFor("the question", `document.activeElement?.id === "confirm-revoke-q"`, 5*time.Second)
	checkA11y(t, b, axe, "tokens, revocation asked")
	b.do(chromedp.Click(chromedp.ID("confirm-revoke-yes")))
	b.waitText("Revoked the token "+name+".", 10*time.Second)
	b.waitFor("the token marked revoked", `document.querySelector("#tokens .revoked")?.textContent.startsWith("Revoked")`, 10*time.Second)
}

// hygieneStatus answers the status of GET /api/v1/hygiene with token.
func hygieneStatus(t *testing.T, s *server, token string) int {
	t.Helper()
	ctx, cancel := context.WithTimeout(t.Context(), 10*time.Second)
	defer cancel()
	_, err := client.New(s.base, token).Hygiene(ctx, feedback.ListParams{Page: 1, PerPage: 1})
	if p, ok := err.(*feedback.Problem); ok {
		return p.Status
	} else if err != nil {
		t.Fatalf("GET /api/v1/hygiene: %v", err)
	}
	return http.StatusOK
}

// refuseWebhook tries to subscribe a private address, which the
// service refuses, and checks that the page says why. The form keeps
// what was typed.
func refuseWebhook(t *testing.T, b *browser, url string) {
	t.Helper()
	b.do(chromedp.SendKeys(chromedp.ID("webhook-url"), url), chromedp.Click(chromedp.ID("event-all")),
		chromedp.Click(chromedp.ID("webhook-create")))
	b.waitFor("the refusal", `document.getElementById("webhooks-problem")?.textContent.includes("The webhook was not created:")`, 20*time.Second)
	if text := eval[string](b, `document.getElementById("webhooks-problem").textContent`); !strings.Contains(text, "url") || !strings.Contains(text, "10.0.0.1") {
		t.Errorf("the page explains the refusal as %q, without the url's reason", text)
	}
	if got := eval[string](b, `document.getElementById("webhook-url").value`); got != url {
		t.Errorf("after the refusal the URL field holds %q, want what was typed, %q", got, url)
	}
}

// createWebhook subscribes url to webhook.test in the page and returns
// the secret the page shows once.
func createWebhook(t *testing.T, b *browser, url string) string {
	t.Helper()
	b.do(chromedp.SendKeys(chromedp.ID("webhook-url"), url), chromedp.Click(chromedp.ID("event-webhook-test")),
		chromedp.Click(chromedp.ID("webhook-create")))
	b.waitFor("the new secret", `document.getElementById("new-secret-value")?.value.startsWith("whsec_")`, 20*time.Second)
	b.waitText("it will not be shown again", 5*time.Second)
	b.waitFor("the webhook in the list", `document.querySelector(".webhook-url")?.textContent === `+jsString(url), 5*time.Second)
	return eval[string](b, `document.getElementById("new-secret-value").value`)
}

// pingWebhook sends a test event from the page, then waits until the
// page's log shows it delivered and checks what the receiver got.
func pingWebhook(t *testing.T, b *browser, rcv *receiver, url, secret string) {
	t.Helper()
	b.do(chromedp.Click(chromedp.CSS(`button[aria-label="Send a test event to ` + url + `"]`)))
	b.waitFor("the test event delivered in the log", `(() => { const d = document.querySelector("#deliveries .delivery-succeeded");
		return d && d.textContent.includes("webhook.test") && d.querySelector(".attempts")?.textContent.includes("Attempt 1: HTTP 200") })()`, 30*time.Second)
	got := rcv.received()
	if len(got) != 1 {
		t.Fatalf("the receiver got %d requests, want 1", len(got))
	}
	r := got[0]
	logID := eval[string](b, `document.querySelector("#deliveries .delivery").id`)
	if "delivery-"+r.id != logID {
		t.Errorf("the receiver got webhook-id %q; the log shows %q", r.id, logID)
	}
	key, err := webhook.SecretKey(secret)
	if err != nil {
		t.Fatalf("the page's secret: %v", err)
	}
	ts, _ := strconv.ParseInt(r.timestamp, 10, 64)
	if want := webhook.Sign([][]byte{key}, r.id, time.Unix(ts, 0), r.body); r.signature != want {
		t.Errorf("webhook-signature %q, want %q (signed with the secret the page showed)", r.signature, want)
	}
}

// redeliver sends the logged delivery again from the page and checks
// that the receiver gets it with the same webhook-id.
func redeliver(t *testing.T, b *browser, rcv *receiver) {
	t.Helper()
	b.do(chromedp.Click(chromedp.CSS(`#deliveries .delivery button`)))
	b.waitFor("the second attempt in the log", `document.querySelectorAll("#deliveries .attempts li").length === 2 &&
		document.querySelector("#deliveries .delivery-succeeded")`, 30*time.Second)
	got := rcv.received()
	if len(got) != 2 || got[0].id != got[1].id {
		t.Errorf("the receiver got %d requests (%+v), want the delivery twice with one webhook-id", len(got), got)
	}
}

// rotateSecret gives the webhook a new secret in the page, which asks
// first and shows it once, then sends a test event and checks that it is
// signed with the new secret (and, for a day, the old one too).
func rotateSecret(t *testing.T, b *browser, rcv *receiver, url, old string) {
	t.Helper()
	b.do(chromedp.Click(chromedp.CSS(`button[aria-label="Rotate the secret of ` + url + `"]`)))
	b.waitFor("the question", `document.activeElement?.id === "confirm-rotate-q"`, 5*time.Second)
	b.do(chromedp.Click(chromedp.ID("confirm-rotate-yes")))
	b.waitFor("the new secret", `document.getElementById("new-secret-title")?.textContent === "Secret rotated"`, 20*time.Second)
	secret := eval[string](b, `document.getElementById("new-secret-value").value`)
	if secret == old || !strings.HasPrefix(secret, "whsec_") {
		t.Fatalf("the page shows the rotated secret %q (the old one was %q)", secret, old)
	}
	b.do(chromedp.Click(chromedp.CSS(`button[aria-label="Send a test event to ` + url + `"]`)))
	b.waitFor("two deliveries in the log", `document.querySelectorAll("#deliveries .delivery-succeeded").length === 2`, 30*time.Second)
	got := rcv.received()
	if len(got) != 3 {
		t.Fatalf("the receiver got %d requests, want 3", len(got))
	}
	r := got[2]
	key, err := webhook.SecretKey(secret)
	if err != nil {
		t.Fatal(err)
	}
	ts, _ := strconv.ParseInt(r.timestamp, 10, 64)
	want := webhook.Sign([][]byte{key}, r.id, time.Unix(ts, 0), r.body)
	if !slices.Contains(strings.Fields(r.signature), want) {
		t.Errorf("webhook-signature %q lacks %q, the signature with the rotated secret", r.signature, want)
	}
}

// receiver is an HTTP server on the loopback interface that records the
// webhook requests it answers 200 to.
type receiver struct {
	url string
	mu  sync.Mutex
	got []received
}

// received is one webhook request.
type received struct {
	id, timestamp, signature string
	body                     []byte
}

func startReceiver(t *testing.T) *receiver {
	t.Helper()
	rcv := &receiver{}
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		rcv.mu.Lock()
		rcv.got = append(rcv.got, received{id: r.Header.Get(webhook.HeaderID), timestamp: r.Header.Get(webhook.HeaderTimestamp),
			signature: r.Header.Get(webhook.HeaderSignature), body: body})
		rcv.mu.Unlock()
	}))
	t.Cleanup(ts.Close)
	rcv.url = ts.URL
	return rcv
}

func (r *receiver) received() []received {
	r.mu.Lock()
	defer r.mu.Unlock()
	return slices.Clone(r.got)
}

// snap saves a screenshot of the whole page in shotsDir as name.png.
func snap(t *testing.T, b *browser, name string) {
	t.Helper()
	png, err := chromedp.Run(b.ctx, chromedp.FullScreenshot(100))
	if err != nil {
		t.Fatalf("screenshot: %v", err)
	}
	saveShot(t, name, png)
}
