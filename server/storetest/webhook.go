package storetest

import (
	"testing"

	"github.com/feedbackhq/feedback/server"
	"github.com/feedbackhq/feedback/shared/feedback"
)

func (f *fixture) webhook(ws string) *server.Webhook {
	f.t.Helper()
	w := &server.Webhook{WorkspaceID: ws, WebhookSubscription: feedback.WebhookSubscription{URL: "https://example.com/hook",
		Events: []string{feedback.EventHygieneSubmissionCreated, feedback.EventReviewStatusChanged}, SecretPrefix: "whsec_abcdef"},
		Secret: []byte{9, 8, 7, 0}}
	f.must(f.s.CreateWebhook(f.ctx(), w))
	return w
}

func testWebhook(t *testing.T, h harness) {
	h.run(t, "Create", func(t *testing.T, f *fixture) {
		ws := f.workspace("acme")
		w := f.webhook(ws)
		want := server.Webhook{WorkspaceID: ws, WebhookSubscription: feedback.WebhookSubscription{ID: w.ID, URL: "https://example.com/hook",
			Events: []string{feedback.EventHygieneSubmissionCreated, feedback.EventReviewStatusChanged}, SecretPrefix: "whsec_abcdef",
			CreatedAt: feedback.Time{Time: f.clock.stored()}, UpdatedAt: feedback.Time{Time: f.clock.stored()}}, Secret: []byte{9, 8, 7, 0}}
		wantEqual(t, "the argument after CreateWebhook", want, *w)
		got, err := f.s.Webhook(f.ctx(), ws, w.ID)
		f.must(err)
		wantEqual(t, "Webhook", want, *got)
		orphan := &server.Webhook{WorkspaceID: feedback.NewID(), WebhookSubscription: feedback.WebhookSubscription{
			URL: "https://example.com", Events: []string{"*"}}, Secret: []byte{1}}
		wantCode(t, f.s.CreateWebhook(f.ctx(), orphan), feedback.ENotFound)
	})
	h.run(t, "Delete", func(t *testing.T, f *fixture) {
		ws := f.workspace("acme")
		gone, kept := f.webhook(ws), f.webhook(ws)
		f.must(f.s.DeleteWebhook(f.ctx(), ws, gone.ID))
		_, err := f.s.Webhook(f.ctx(), ws, gone.ID)
		wantCode(t, err, feedback.ENotFound)
		wantCode(t, f.s.DeleteWebhook(f.ctx(), ws, gone.ID), feedback.ENotFound)
		got, total, err := ids(f.s.Webhooks(f.ctx(), ws, feedback.ListParams{Page: 1, PerPage: 10}))
		f.must(err)
		if total != 1 || len(got) != 1 || got[0] != kept.ID {
			t.Errorf("Webhooks after the delete: %v (total %d), want only %s", got, total, kept.ID)
		}
	})
	h.run(t, "NotFound", func(t *testing.T, f *fixture) {
		ws := f.workspace("acme")
		f.webhook(ws)
		for _, id := range []string{feedback.NewID(), "nope"} {
			_, err := f.s.Webhook(f.ctx(), ws, id)
			wantCode(t, err, feedback.ENotFound)
			wantCode(t, f.s.DeleteWebhook(f.ctx(), ws, id), feedback.ENotFound)
		}
	})
}
