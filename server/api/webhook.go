package api

import (
	"encoding/json"
	"net/http"

	"github.com/go-chi/chi/v5"

	"github.com/feedbackhq/feedback/server"
	"github.com/feedbackhq/feedback/server/http/request"
	"github.com/feedbackhq/feedback/server/http/response"
	"github.com/feedbackhq/feedback/server/secret"
	"github.com/feedbackhq/feedback/server/webhook"
	"github.com/feedbackhq/feedback/shared/feedback"
)

func (s *Server) registerWebhookRoutes(r chi.Router) {
	r.Get("/webhooks", s.handle(listHandler(s.store.Webhooks)))
	r.Post("/webhooks", s.handle(s.handleWebhookCreate))
	r.Get("/webhooks/{id}", s.handle(getHandler(s.store.Webhook)))
	r.Patch("/webhooks/{id}", s.handle(s.handleWebhookUpdate))
	r.Delete("/webhooks/{id}", s.handle(s.handleWebhookDelete))
	r.Post("/webhooks/{id}/test", s.handle(s.handleWebhookTest))
	r.Get("/webhooks/{id}/deliveries", s.handle(subListHandler(s.store.Deliveries)))
	r.Post("/webhooks/{id}/deliveries/{delivery}/redeliver", s.handle(s.handleRedeliver))
}

// anyScheme lets the syntax check pass http; the policy then decides
// whether the destination may be reached over it.
func anyScheme(string) bool { return true }

// handleWebhookCreate handles "POST /webhooks": it checks where the URL
// leads (no private or loopback address unless allowed), stores the
// subscription with its secret sealed at rest, and answers the secret's
// prefix only.
func (s *Server) handleWebhookCreate(w http.ResponseWriter, r *http.Request) error {
	var in feedback.WebhookInput
	if err := request.DecodeJSON(w, r, &in, request.MaxJSONBody); err != nil {
		return err
	}
	if err := in.Validate(anyScheme); err != nil {
		return err
	}
	if err := s.policy.CheckURL(r.Context(), in.URL); err != nil {
		return err
	}
	if in.Secret == "" {
		in.Secret = secret.NewWebhookSecret()
	}
	ws := request.WorkspaceID(r.Context())
	wh := &server.Webhook{WorkspaceID: ws}
	wh.ID, wh.URL, wh.Events = feedback.NewID(), in.URL, in.Events
	wh.SecretPrefix = in.Secret[:feedback.SecretPrefixLength]
	wh.Secret = s.keys.Seal([]byte(in.Secret), webhook.SecretAAD(ws, wh.ID))
	if err := s.store.CreateWebhook(r.Context(), wh); err != nil {
		return err
	}
	s.audit.Record(r, &ws, feedback.AuditWebhookCreated, "webhook:"+wh.ID, map[string]string{"url": wh.URL})
	return writeCreated(w, r, "/webhooks/"+wh.ID, wh.WebhookSubscription)
}

// handleWebhookDelete handles "DELETE /webhooks/{id}", with its
// pending deliveries.
func (s *Server) handleWebhookDelete(w http.ResponseWriter, r *http.Request) error {
	id, err := request.PathID(r, "id")
	if err != nil {
		return err
	}
	if err := deleteByID(w, r, s.store.DeleteWebhook); err != nil {
		return err
	}
	ws := request.WorkspaceID(r.Context())
	s.audit.Record(r, &ws, feedback.AuditWebhookDeleted, "webhook:"+id, nil)
	return nil
}

// handleWebhookUpdate handles "PATCH /webhooks/{id}": a new URL is
// checked like a new subscription's; a new secret rotates, the old one
// signing alongside it for a day.
func (s *Server) handleWebhookUpdate(w http.ResponseWriter, r *http.Request) error {
	id, err := request.PathID(r, "id")
	if err != nil {
		return err
	}
	var in feedback.WebhookUpdate
	if err := request.DecodeJSON(w, r, &in, request.MaxJSONBody); err != nil {
		return err
	}
	if err := in.Validate(anyScheme); err != nil {
		return err
	}
	if in.URL != nil {
		if err := s.policy.CheckURL(r.Context(), *in.URL); err != nil {
			return err
		}
	}
	ws := request.WorkspaceID(r.Context())
	c := server.WebhookChange{URL: in.URL, Events: in.Events, Enabled: in.Enabled}
	if in.Secret != nil {
		c.Secret = s.keys.Seal([]byte(*in.Secret), webhook.SecretAAD(ws, id))
		c.SecretPrefix = (*in.Secret)[:feedback.SecretPrefixLength]
	}
	wh, err := s.store.UpdateWebhook(r.Context(), ws, id, c)
	if err != nil {
		return err
	}
	return response.JSON(w, http.StatusOK, wh.WebhookSubscription)
}

// handleWebhookTest handles "POST /webhooks/{id}/test": a webhook.test
// event delivered to this subscription only, answered 202 with the
// delivery to follow in its log.
func (s *Server) handleWebhookTest(w http.ResponseWriter, r *http.Request) error {
	id, err := request.PathID(r, "id")
	if err != nil {
		return err
	}
	if err := request.NoQuery(r); err != nil {
		return err
	}
	data, _ := json.Marshal(map[string]string{"webhook_id": id, "message": "This is a test event from feedbackd."})
	d, err := s.store.PingWebhook(r.Context(), request.WorkspaceID(r.Context()), id, data)
	if err != nil {
		return err
	}
	return response.JSON(w, http.StatusAccepted, d)
}

// handleRedeliver handles "POST /webhooks/{id}/deliveries/{delivery}/redeliver".
func (s *Server) handleRedeliver(w http.ResponseWriter, r *http.Request) error {
	id, err := request.PathID(r, "id")
	if err != nil {
		return err
	}
	did, err := request.PathID(r, "delivery")
	if err != nil {
		return err
	}
	d, err := s.store.Redeliver(r.Context(), request.WorkspaceID(r.Context()), id, did)
	if err != nil {
		return err
	}
	return response.JSON(w, http.StatusAccepted, d)
}
