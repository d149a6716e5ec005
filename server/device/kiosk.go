package device

import (
	"context"
	"encoding/json"
	"net/http"

	"github.com/feedbackhq/feedback/server"
	"github.com/feedbackhq/feedback/server/http/request"
	"github.com/feedbackhq/feedback/server/http/response"
	"github.com/feedbackhq/feedback/server/secret"
	"github.com/feedbackhq/feedback/server/workspace"
	"github.com/feedbackhq/feedback/shared/feedback"
)

type contextKey struct{ name string }

var kioskKey = &contextKey{"kiosk"}

// maxKioskBatch is the size limit of a sync's body.
const maxKioskBatch = 8 << 20

// pairPerIP bounds pairing attempts per client IP and minute: with 40-bit
// codes valid ten minutes, guessing one is hopeless.
const pairPerIP = 20

// maxAppVersion is the longest app version a heartbeat may report, in
// characters.
const maxAppVersion = 100

// handleKioskPair handles "POST /kiosk/pair": it consumes a pairing code
// and answers the kiosk's credential, once.
func (s *Server) handleKioskPair(w http.ResponseWriter, r *http.Request) error {
	if err := s.local.Take(w, r, "pair-ip:"+request.ClientIP(r), pairPerIP); err != nil {
		return err
	}
	var in feedback.PairRequest
	if err := request.DecodeJSON(w, r, &in, request.MaxJSONBody); err != nil {
		return err
	}
	cred, hash := secret.NewToken(secret.KioskTokenPrefix)
	k := &server.Kiosk{CredentialHash: hash}
	err := s.store.PairKiosk(r.Context(), secret.Hash(secret.NormalizePairingCode(in.Code)), k)
	if feedback.ErrorCode(err) == feedback.ENotFound {
		return &feedback.Error{Code: feedback.EValidation, Message: "The pairing code is unknown, used or expired.",
			Params: []feedback.InvalidParam{{Name: "code", Reason: "is unknown, used or expired"}}}
	}
	if err != nil {
		return err
	}
	return response.JSON(w, http.StatusCreated, feedback.Pairing{Kiosk: k.Kiosk, Credential: cred})
}

// requireKiosk authenticates a kiosk by its device credential.
func (s *Server) requireKiosk(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		k, err := s.kioskAuth(r)
		if err != nil {
			s.errs.Write(w, r, s.anon.Refuse(w, r, err))
			return
		}
		if err := s.local.Take(w, r, "kiosk:"+k.ID, s.limits.PerKiosk); err != nil {
			s.errs.Write(w, r, err)
			return
		}
		next.ServeHTTP(w, r.WithContext(context.WithValue(r.Context(), kioskKey, k)))
	})
}

func (s *Server) kioskAuth(r *http.Request) (*server.Kiosk, error) {
	value, given := request.Bearer(r, secret.KioskTokenPrefix)
	if !given {
		return nil, feedback.Errorf(feedback.EUnauthenticated, "This endpoint needs a kiosk credential: Authorization: Bearer fbkk_...")
	}
	if value == "" {
		return nil, feedback.Errorf(feedback.EInvalidToken, "The Authorization header must be Bearer followed by a kiosk credential (fbkk_...).")
	}
	k, err := s.store.KioskByCredential(r.Context(), secret.Hash(value))
	if feedback.ErrorCode(err) == feedback.ENotFound {
		return nil, feedback.Errorf(feedback.EInvalidToken, "The kiosk credential is not valid.")
	}
	if err != nil {
		return nil, err
	}
	if k.RevokedAt != nil {
		return nil, feedback.Errorf(feedback.ETokenRevoked, "This kiosk was unpaired; pair it again.")
	}
	return k, nil
}

func kioskOf(ctx context.Context) *server.Kiosk {
	k, _ := ctx.Value(kioskKey).(*server.Kiosk)
	return k
}

// kioskTarget is where the kiosk's submissions go.
func (s *Server) kioskTarget(ctx context.Context, k *server.Kiosk) (*target, error) {
	view, err := workspace.FormView(ctx, s.store, k.WorkspaceID, k.LocationID, k.FormRef, false)
	if err != nil {
		return nil, err
	}
	return &target{WorkspaceID: k.WorkspaceID, LocationID: k.LocationID, DeviceID: k.ID,
		Source: feedback.SourceKiosk, FormRef: k.FormRef, View: view}, nil
}

// handleKioskConfig handles "GET /kiosk/config".
func (s *Server) handleKioskConfig(w http.ResponseWriter, r *http.Request) error {
	k := kioskOf(r.Context())
	t, err := s.kioskTarget(r.Context(), k)
	if err != nil {
		return err
	}
	return response.JSON(w, http.StatusOK, feedback.KioskConfig{Kiosk: k.Kiosk, Form: *t.View})
}

// handleKioskHeartbeat handles "POST /kiosk/heartbeat".
func (s *Server) handleKioskHeartbeat(w http.ResponseWriter, r *http.Request) error {
	var hb feedback.Heartbeat
	if err := request.DecodeJSON(w, r, &hb, request.MaxJSONBody); err != nil {
		return err
	}
	var v feedback.Validator
	v.Check(hb.QueueDepth >= 0, "queue_depth", "must not be negative")
	var reason string
	hb.AppVersion, reason = feedback.CleanText(hb.AppVersion, maxAppVersion)
	v.Check(reason == "", "app_version", reason)
	if err := v.Err(); err != nil {
		return err
	}
	k := kioskOf(r.Context())
	if err := s.store.KioskHeartbeat(r.Context(), k.WorkspaceID, k.ID, hb); err != nil {
		return err
	}
	w.WriteHeader(http.StatusNoContent)
	return nil
}

// handleKioskSync handles "POST /kiosk/sync": up to 500 queued
// submissions, each accepted or rejected on its own. The kiosk's queue
// depth and last sight are updated at once, not only at its next
// heartbeat.
func (s *Server) handleKioskSync(w http.ResponseWriter, r *http.Request) error {
	batch, err := decodeSync(w, r)
	if err != nil {
		return err
	}
	k := kioskOf(r.Context())
	t, err := s.kioskTarget(r.Context(), k)
	if err != nil {
		return err
	}
	out := feedback.SyncResponse{Results: make([]feedback.SyncResult, len(batch.Submissions))}
	left := 0
	for i, raw := range batch.Submissions {
		out.Results[i] = s.syncOne(r, t, raw)
		if out.Results[i].Status < http.StatusInternalServerError {
			left++ // answered for good: it leaves the kiosk's queue
		}
	}
	if err := s.store.KioskSynced(r.Context(), k.WorkspaceID, k.ID, batch.QueueDepth, left); err != nil {
		return err
	}
	return response.JSON(w, http.StatusOK, out)
}

// syncRequest is [feedback.SyncRequest] with each submission as it came.
type syncRequest struct {
	Submissions []json.RawMessage `json:"submissions"`
	QueueDepth  *int              `json:"queue_depth"`
}

// decodeSync reads and checks the body of a sync; the text of each
// submission is checked on its own, by syncOne.
func decodeSync(w http.ResponseWriter, r *http.Request) (*syncRequest, error) {
	var batch syncRequest
	body, err := request.ReadJSON(w, r, maxKioskBatch)
	if err == nil {
		err = request.DecodeStrict(body, &batch)
	}
	if err != nil {
		return nil, err
	}
	var v feedback.Validator
	v.Check(len(batch.Submissions) > 0 && len(batch.Submissions) <= feedback.MaxSyncBatch, "submissions", "must hold 1 to 500 items")
	v.Check(batch.QueueDepth == nil || *batch.QueueDepth >= 0, "queue_depth", "must not be negative")
	return &batch, v.Err()
}

// syncOne stores one item of a sync and reports its outcome.
func (s *Server) syncOne(r *http.Request, t *target, raw json.RawMessage) feedback.SyncResult {
	var sub feedback.Submission
	err := request.DecodeStrict(raw, &sub) // for the id, even when the text is refused
	if textErr := request.CheckJSONText(raw); textErr != nil {
		err = textErr
	}
	if err == nil {
		var created bool
		_, created, err = s.ingest(r.Context(), t, &sub, "")
		if err == nil && created {
			return feedback.SyncResult{ID: sub.ID, Status: http.StatusCreated}
		}
	}
	if err == nil {
		return feedback.SyncResult{ID: sub.ID, Status: http.StatusOK}
	}
	if response.Status(err) >= 500 {
		s.log.ErrorContext(r.Context(), "kiosk sync item failed", "err", err)
	}
	p := response.Problem(r, err)
	return feedback.SyncResult{ID: sub.ID, Status: p.Status, Problem: p}
}
