package api

import (
	"net/http"
	"slices"
	"time"
	"unicode/utf8"

	"github.com/feedbackhq/feedback/server/http/request"
	"github.com/feedbackhq/feedback/server/http/response"
	"github.com/feedbackhq/feedback/shared/feedback"
)

// maxResolutionNote is the most characters of a resolution note.
const maxResolutionNote = 1000

// alertStates are the values of the state filter of GET /alerts.
var alertStates = []string{feedback.AlertOpen, feedback.AlertAcknowledged, feedback.AlertResolved, "active"}

// handleAlerts handles "GET /alerts": a page of alerts, newest first,
// filtered by state, rule_id, location_id and from/to on triggered_at.
func (s *Server) handleAlerts(w http.ResponseWriter, r *http.Request) error {
	p, err := request.ListParams(r, feedback.ParamFrom, feedback.ParamTo, feedback.ParamLocationID, "state", "rule_id")
	if err != nil {
		return err
	}
	q := r.URL.Query()
	var v feedback.Validator
	f := feedback.AlertFilter{State: q.Get("state")}
	if q.Has("state") {
		v.Check(slices.Contains(alertStates, f.State), "state", "must be open, acknowledged, resolved or active")
	}
	if q.Has("rule_id") {
		id, ok := feedback.ParseUUID(q.Get("rule_id"))
		v.Check(ok, "rule_id", "must be a UUID")
		f.RuleID = id
	}
	if err := v.ParamErr(); err != nil {
		return err
	}
	items, total, err := s.store.Alerts(r.Context(), request.WorkspaceID(r.Context()), p, f)
	if err != nil {
		return err
	}
	return response.Page(w, items, total, p)
}

// handleAlertAcknowledge handles "POST /alerts/{id}/acknowledge" by the
// request's actor (a user's email or "token:" and the token's name).
func (s *Server) handleAlertAcknowledge(w http.ResponseWriter, r *http.Request) error {
	id, err := request.PathID(r, "id")
	if err != nil {
		return err
	}
	a, err := s.store.AcknowledgeAlert(r.Context(), request.WorkspaceID(r.Context()), id, actor(r))
	if err != nil {
		return err
	}
	return response.JSON(w, http.StatusOK, a)
}

// handleAlertResolve handles "POST /alerts/{id}/resolve" {note}.
func (s *Server) handleAlertResolve(w http.ResponseWriter, r *http.Request) error {
	id, err := request.PathID(r, "id")
	if err != nil {
		return err
	}
	var in feedback.AlertResolution
	if err := request.DecodeJSON(w, r, &in, request.MaxJSONBody); err != nil {
		return err
	}
	if !utf8.ValidString(in.Note) || utf8.RuneCountInString(in.Note) > maxResolutionNote {
		return invalid("note", "must be valid text of at most 1000 characters")
	}
	a, err := s.store.ResolveAlert(r.Context(), request.WorkspaceID(r.Context()), id, actor(r), in.Note)
	if err != nil {
		return err
	}
	return response.JSON(w, http.StatusOK, a)
}

// handleAlertStats handles "GET /stats/alerts?from&to": per location,
// the alerts triggered in [from, to) and their average times to
// acknowledge and to resolve. from defaults to 30 days before to, to to
// now.
func (s *Server) handleAlertStats(w http.ResponseWriter, r *http.Request) error {
	p, err := request.ListParams(r, feedback.ParamFrom, feedback.ParamTo)
	if err != nil {
		return err
	}
	to := s.now()
	if p.To != nil {
		to = *p.To
	}
	from := to.Add(-30 * 24 * time.Hour)
	if p.From != nil {
		from = *p.From
	}
	locs, err := s.store.AlertStats(r.Context(), request.WorkspaceID(r.Context()), from, to)
	if err != nil {
		return err
	}
	return response.JSON(w, http.StatusOK, feedback.AlertStats{From: feedback.NewTime(from), To: feedback.NewTime(to), Locations: locs})
}

// actor names who acts in a request.
func actor(r *http.Request) string {
	if p := request.PrincipalOf(r.Context()); p != nil {
		return p.Actor
	}
	return ""
}
