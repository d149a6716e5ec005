package feedback

// Kinds of alert rules.
const (
	// RuleLowRatings: Count hygiene ratings of Rating or less within
	// WindowMinutes at one location.
	RuleLowRatings = "low_ratings"
	// RuleAverageBelow: the average hygiene rating of at least Count
	// ratings within WindowMinutes at one location is below Average.
	RuleAverageBelow = "average_below"
	// RuleTagReported: Tag reported Count times within WindowMinutes at
	// one location.
	RuleTagReported = "tag_reported"
	// RuleKioskOffline: a kiosk offline for longer than WindowMinutes.
	RuleKioskOffline = "kiosk_offline"
)

// RuleKinds lists every kind of alert rule.
var RuleKinds = []string{RuleLowRatings, RuleAverageBelow, RuleTagReported, RuleKioskOffline}

// States of an alert: open, then acknowledged, then resolved (an open
// alert may be resolved at once).
const (
	AlertOpen         = "open"
	AlertAcknowledged = "acknowledged"
	AlertResolved     = "resolved"
)

// AlertRule is a threshold that raises alerts; GET /alert-rules.
type AlertRule struct {
	ID   string `json:"id"`
	Name string `json:"name"`
	Kind string `json:"kind"`
	// LocationID limits the rule to one location; null for every
	// location of the workspace.
	LocationID *string `json:"location_id"`
	// Count is N of the rule's kind (see the Rule* constants).
	Count int `json:"count"`
	// Rating is X of RuleLowRatings (1 to 4).
	Rating int `json:"rating,omitempty"`
	// Average is X of RuleAverageBelow (1 to 5).
	Average float64 `json:"average,omitempty"`
	// Tag is the hygiene tag of RuleTagReported.
	Tag string `json:"tag,omitempty"`
	// WindowMinutes is W (1 to 10,080).
	WindowMinutes int `json:"window_minutes"`
	// CooldownMinutes: after an alert of this rule at a location (or
	// kiosk) is resolved, the rule raises no new one there for this long.
	CooldownMinutes int `json:"cooldown_minutes"`
	// Emails are notified of each alert the rule raises (at most 20).
	Emails    []string `json:"emails"`
	Enabled   bool     `json:"enabled"`
	CreatedAt Time     `json:"created_at"`
	UpdatedAt Time     `json:"updated_at"`
}

// AlertRuleInput is the body of POST and PATCH /alert-rules; a nil
// field of a PATCH is left unchanged. Kind cannot change.
type AlertRuleInput struct {
	Name            *string   `json:"name,omitempty"`
	Kind            *string   `json:"kind,omitempty"`
	LocationID      *string   `json:"location_id,omitempty"` // "" for every location
	Count           *int      `json:"count,omitempty"`
	Rating          *int      `json:"rating,omitempty"`
	Average         *float64  `json:"average,omitempty"`
	Tag             *string   `json:"tag,omitempty"`
	WindowMinutes   *int      `json:"window_minutes,omitempty"`
	CooldownMinutes *int      `json:"cooldown_minutes,omitempty"`
	Emails          *[]string `json:"emails,omitempty"`
	Enabled         *bool     `json:"enabled,omitempty"`
}

// Alert is one incident a rule raised; GET /alerts. It is the data of
// the alert.triggered, alert.acknowledged and alert.resolved events.
type Alert struct {
	ID       string `json:"id"`
	RuleID   string `json:"rule_id"`
	RuleName string `json:"rule_name"`
	Kind     string `json:"kind"`
	// LocationID is the location of the incident (a kiosk's location for
	// RuleKioskOffline); KioskID is set for RuleKioskOffline only.
	LocationID *string `json:"location_id"`
	KioskID    *string `json:"kiosk_id"`
	State      string  `json:"state"`
	// Value is what was measured when the rule fired: the count, the
	// average, or the minutes offline.
	Value float64 `json:"value"`
	// Summary says in English what happened ("3 ratings of 2 or less
	// within 10 minutes").
	Summary        string `json:"summary"`
	TriggeredAt    Time   `json:"triggered_at"`
	AcknowledgedAt *Time  `json:"acknowledged_at"`
	// AcknowledgedBy and ResolvedBy name who acted: a user's email, or
	// "token:" and an API token's name.
	AcknowledgedBy *string `json:"acknowledged_by"`
	ResolvedAt     *Time   `json:"resolved_at"`
	ResolvedBy     *string `json:"resolved_by"`
	ResolutionNote string  `json:"resolution_note"`
}

// AlertResolution is the body of POST /alerts/{id}/resolve.
type AlertResolution struct {
	Note string `json:"note"`
}

// AlertResponseTimes is one location's part of GET /stats/alerts: how
// many alerts were triggered in the range, and the average seconds to
// acknowledge and to resolve those that were (null when none was).
type AlertResponseTimes struct {
	LocationID         string   `json:"location_id"`
	Alerts             int      `json:"alerts"`
	Open               int      `json:"open"`
	AvgAcknowledgeSecs *float64 `json:"avg_acknowledge_seconds"`
	AvgResolveSecs     *float64 `json:"avg_resolve_seconds"`
}

// AlertStats answers GET /stats/alerts.
type AlertStats struct {
	From      Time                 `json:"from"`
	To        Time                 `json:"to"`
	Locations []AlertResponseTimes `json:"locations"`
}

// AlertFilter narrows GET /alerts besides the ListParams (page, per_page,
// from, to on triggered_at, location_id).
type AlertFilter struct {
	// State is one of the alert states, "active" (open or acknowledged),
	// or "" for every state.
	State  string
	RuleID string
}
