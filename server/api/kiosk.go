package api

import (
	"net/http"
	"time"

	"github.com/go-chi/chi/v5"

	"github.com/feedbackhq/feedback/server"
	"github.com/feedbackhq/feedback/server/http/request"
	"github.com/feedbackhq/feedback/server/http/response"
	"github.com/feedbackhq/feedback/server/secret"
	"github.com/feedbackhq/feedback/shared/feedback"
)

// pairingCodeTTL is how long a pairing code can be used.
const pairingCodeTTL = 10 * time.Minute

func (s *Server) registerKioskRoutes(r chi.Router) {
	r.Post("/kiosks/pairing-codes", s.handle(s.handlePairingCodeCreate))
	r.Get("/kiosks", s.handle(listHandler(s.store.Kiosks)))
	r.Delete("/kiosks/{id}", s.handle(func(w http.ResponseWriter, r *http.Request) error {
		return deleteByID(w, r, s.store.RevokeKiosk)
	}))
}

// handlePairingCodeCreate handles "POST /kiosks/pairing-codes": a code,
// valid for ten minutes, that pairs one kiosk to a location's form.
func (s *Server) handlePairingCodeCreate(w http.ResponseWriter, r *http.Request) error {
	var in feedback.PairingCodeInput
	if err := request.DecodeJSON(w, r, &in, request.MaxJSONBody); err != nil {
		return err
	}
	if err := in.Validate(); err != nil {
		return err
	}
	code, hash := secret.NewPairingCode()
	pc := &server.PairingCode{WorkspaceID: request.WorkspaceID(r.Context()), Hash: hash, PairingCodeInput: in,
		ExpiresAt: s.now().Add(pairingCodeTTL)}
	if err := s.store.CreatePairingCode(r.Context(), pc); err != nil {
		return err
	}
	return response.JSON(w, http.StatusCreated, feedback.PairingCode{Code: code, ExpiresAt: feedback.NewTime(pc.ExpiresAt)})
}
