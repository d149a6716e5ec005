package e2e_test

import (
	"context"
	"strconv"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/feedbackhq/feedback/shared/client"
	"github.com/feedbackhq/feedback/shared/feedback"
)

// pageLog sends test events to the webhook of url through the API until
// its log holds more than a page, and turns the log's pages in the
// page: the second holds the oldest deliveries, and Newer goes back.
func pageLog(t *testing.T, b *browser, s *server, url string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(t.Context(), 30*time.Second)
	defer cancel()
	api := client.New(s.base, s.token)
	hooks, err := api.Webhooks(ctx, feedback.ListParams{Page: 1, PerPage: 10})
	if err != nil || len(hooks.Data) != 1 || hooks.Data[0].URL != url {
		t.Fatalf("GET /webhooks: %v %+v", err, hooks)
	}
	id := hooks.Data[0].ID
	log, err := api.Deliveries(ctx, id, feedback.ListParams{Page: 1, PerPage: 1})
	if err != nil {
		t.Fatal(err)
	}
	for range 51 - log.Meta.Total {
		if _, err := api.TestWebhook(ctx, id); err != nil {
			t.Fatalf("POST /webhooks/%s/test: %v", id, err)
		}
	}
	b.do(chromedp.Click(chromedp.ID("log-reload")))
	b.waitFor("the log's first page", `document.getElementById("log-status").textContent === "Deliveries 1–50 of 51, newest first." &&
		document.querySelectorAll("#deliveries .delivery").length === 50`, 20*time.Second)
	oldest := eval[string](b, `document.querySelector("#deliveries .delivery:last-child").id`)
	b.do(chromedp.Click(chromedp.ID("log-older")))
	b.waitFor("the log's second page", `document.getElementById("log-status").textContent === "Deliveries 51–51 of 51, newest first." &&
		document.activeElement?.id === "log-status"`, 20*time.Second)
	if got := eval[int](b, `document.querySelectorAll("#deliveries .delivery").length`); got != 1 {
		t.Errorf("the second page shows %d deliveries, want 1", got)
	}
	if eval[string](b, `document.querySelector("#deliveries .delivery").id`) == oldest {
		t.Errorf("the second page repeats the first page's last delivery %s", oldest)
	}
	b.do(chromedp.Click(chromedp.ID("log-newer")))
	b.waitFor("the log's first page again", `document.querySelectorAll("#deliveries .delivery").length === 50 &&
		document.querySelector("#deliveries .delivery:last-child").id === `+strconv.Quote(oldest), 20*time.Second)
}
