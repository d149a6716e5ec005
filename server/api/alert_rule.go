package api

import (
	"fmt"
	"net/http"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/go-chi/chi/v5"

	"github.com/feedbackhq/feedback/server/http/request"
	"github.com/feedbackhq/feedback/server/http/response"
	"github.com/feedbackhq/feedback/shared/feedback"
)

// Bounds of an alert rule.
const (
	maxRuleName    = 100
	maxRuleMinutes = 10080 // a week
	maxRuleEmails  = 20
)

func (s *Server) registerAlertRoutes(r chi.Router) {
	r.Get("/alert-rules", s.handle(listHandler(s.store.AlertRules)))
	r.Post("/alert-rules", s.handle(s.handleAlertRuleCreate))
	r.Get("/alert-rules/{id}", s.handle(getHandler(s.store.AlertRule)))
	r.Patch("/alert-rules/{id}", s.handle(s.handleAlertRuleUpdate))
	r.Delete("/alert-rules/{id}", s.handle(s.handleAlertRuleDelete))
	r.Get("/alerts", s.handle(s.handleAlerts))
	r.Get("/alerts/{id}", s.handle(getHandler(s.store.Alert)))
	r.Post("/alerts/{id}/acknowledge", s.handle(s.handleAlertAcknowledge))
	r.Post("/alerts/{id}/resolve", s.handle(s.handleAlertResolve))
	r.Get("/stats/alerts", s.handle(s.handleAlertStats))
}

// handleAlertRuleCreate handles "POST /alert-rules": a rule is enabled
// unless the body says otherwise, with no cool-down and no emails by
// default.
func (s *Server) handleAlertRuleCreate(w http.ResponseWriter, r *http.Request) error {
	var in feedback.AlertRuleInput
	if err := request.DecodeJSON(w, r, &in, request.MaxJSONBody); err != nil {
		return err
	}
	rule := &feedback.AlertRule{Emails: []string{}, Enabled: true}
	if in.Kind != nil {
		rule.Kind = *in.Kind
	}
	applyRuleInput(rule, in)
	if err := validateRule(rule, true); err != nil {
		return err
	}
	ws := request.WorkspaceID(r.Context())
	if err := s.store.CreateAlertRule(r.Context(), ws, rule); err != nil {
		return err
	}
	s.audit.Record(r, &ws, feedback.AuditAlertRuleAdded, "alert_rule:"+rule.ID, map[string]string{"name": rule.Name})
	return writeCreated(w, r, "/alert-rules/"+rule.ID, rule)
}

// handleAlertRuleUpdate handles "PATCH /alert-rules/{id}": the fields
// given replace the rule's, and the result is validated as a whole; the
// kind cannot change.
func (s *Server) handleAlertRuleUpdate(w http.ResponseWriter, r *http.Request) error {
	id, err := request.PathID(r, "id")
	if err != nil {
		return err
	}
	var in feedback.AlertRuleInput
	if err := request.DecodeJSON(w, r, &in, request.MaxJSONBody); err != nil {
		return err
	}
	ws := request.WorkspaceID(r.Context())
	rule, err := s.store.UpdateAlertRule(r.Context(), ws, id, func(rule *feedback.AlertRule) error {
		if in.Kind != nil && *in.Kind != rule.Kind {
			return invalid("kind", "cannot change; delete the rule and create another")
		}
		applyRuleInput(rule, in)
		return validateRule(rule, false)
	})
	if err != nil {
		return err
	}
	s.audit.Record(r, &ws, feedback.AuditAlertRuleSaved, "alert_rule:"+id, map[string]string{"name": rule.Name})
	return response.JSON(w, http.StatusOK, rule)
}

// handleAlertRuleDelete handles "DELETE /alert-rules/{id}"; the rule's
// alerts stay.
func (s *Server) handleAlertRuleDelete(w http.ResponseWriter, r *http.Request) error {
	id, err := request.PathID(r, "id")
	if err != nil {
		return err
	}
	if err := deleteByID(w, r, s.store.DeleteAlertRule); err != nil {
		return err
	}
	ws := request.WorkspaceID(r.Context())
	s.audit.Record(r, &ws, feedback.AuditAlertRuleGone, "alert_rule:"+id, nil)
	return nil
}

// applyRuleInput copies the non-nil fields of in but Kind to rule;
// location_id "" means every location.
func applyRuleInput(rule *feedback.AlertRule, in feedback.AlertRuleInput) {
	set := func(dst *int, v *int) {
		if v != nil {
			*dst = *v
		}
	}
	if in.Name != nil {
		rule.Name = strings.TrimSpace(*in.Name)
	}
	if in.LocationID != nil {
		rule.LocationID = nil
		if *in.LocationID != "" {
			id := *in.LocationID
			rule.LocationID = &id
		}
	}
	set(&rule.Count, in.Count)
	set(&rule.Rating, in.Rating)
	set(&rule.WindowMinutes, in.WindowMinutes)
	set(&rule.CooldownMinutes, in.CooldownMinutes)
	if in.Average != nil {
		rule.Average = *in.Average
	}
	if in.Tag != nil {
		rule.Tag = *in.Tag
	}
	if in.Emails != nil {
		rule.Emails = slices.Clone(*in.Emails)
	}
	if in.Enabled != nil {
		rule.Enabled = *in.Enabled
	}
}

// validateRule checks a rule as its kind needs it; create says whether
// it is new (a kind is then required).
func validateRule(rule *feedback.AlertRule, create bool) error {
	var v feedback.Validator
	v.Check(rule.Name != "" && utf8.RuneCountInString(rule.Name) <= maxRuleName && utf8.ValidString(rule.Name) &&
		!strings.ContainsAny(rule.Name, "\r\n\x00"), "name", "must be 1 to 100 characters on one line")
	if create && !v.Check(slices.Contains(feedback.RuleKinds, rule.Kind), "kind", "must be one of "+strings.Join(feedback.RuleKinds, ", ")) {
		return v.Err()
	}
	if rule.LocationID != nil {
		_, ok := feedback.ParseUUID(*rule.LocationID)
		v.Check(ok, "location_id", "must be a UUID, or empty for every location")
	}
	v.Check(rule.WindowMinutes >= 1 && rule.WindowMinutes <= maxRuleMinutes, "window_minutes", "must be 1 to 10080")
	v.Check(rule.CooldownMinutes >= 0 && rule.CooldownMinutes <= maxRuleMinutes, "cooldown_minutes", "must be 0 to 10080")
	validateKind(&v, rule)
	if v.Check(len(rule.Emails) <= maxRuleEmails, "emails", "must hold at most 20 addresses") {
		for i, e := range rule.Emails {
			v.Check(feedback.ValidEmail(e), fmt.Sprintf("emails[%d]", i), "must be an email address")
		}
	}
	return v.Err()
}

// validateKind checks the fields of the rule's kind, and clears the
// others so that they read as absent.
func validateKind(v *feedback.Validator, rule *feedback.AlertRule) {
	switch rule.Kind {
	case feedback.RuleLowRatings:
		v.Check(rule.Count >= 1 && rule.Count <= 1000, "count", "must be 1 to 1000")
		v.Check(rule.Rating >= 1 && rule.Rating <= 4, "rating", "must be 1 to 4")
		rule.Average, rule.Tag = 0, ""
	case feedback.RuleAverageBelow:
		v.Check(rule.Count >= 1 && rule.Count <= 1000, "count", "must be 1 to 1000 (the fewest ratings averaged)")
		v.Check(rule.Average >= 1 && rule.Average <= 5, "average", "must be 1 to 5")
		rule.Rating, rule.Tag = 0, ""
	case feedback.RuleTagReported:
		v.Check(rule.Count >= 1 && rule.Count <= 1000, "count", "must be 1 to 1000")
		v.Check(slices.Contains(feedback.HygieneTags, rule.Tag), "tag", "must be one of "+strings.Join(feedback.HygieneTags, ", "))
		rule.Rating, rule.Average = 0, 0
	case feedback.RuleKioskOffline:
		rule.Count, rule.Rating, rule.Average, rule.Tag = 0, 0, 0, ""
	}
}

// invalid returns the validation error of one field.
func invalid(name, reason string) error {
	var v feedback.Validator
	v.Add(name, reason)
	return v.Err()
}
