package client

import (
	"context"
	"net/url"
	"time"

	"github.com/feedbackhq/feedback/shared/feedback"
)

// The calls of the dashboard's statistics and alerts.

// statsValues encodes q as query parameters.
func statsValues(q feedback.StatsQuery) url.Values {
	v := url.Values{"from": {q.From.UTC().Format(time.RFC3339Nano)}, "to": {q.To.UTC().Format(time.RFC3339Nano)}}
	if q.Bucket != "" {
		v.Set("bucket", q.Bucket)
	}
	if q.LocationID != "" {
		v.Set("location_id", q.LocationID)
	}
	return v
}

// HygieneStats returns the hygiene statistics of q.
func (c *Client) HygieneStats(ctx context.Context, q feedback.StatsQuery) (*feedback.HygieneStats, error) {
	return call[feedback.HygieneStats](ctx, c, "GET", withQuery("/stats/hygiene", statsValues(q)), nil)
}

// LocationStats returns every location's hygiene series of q (its
// LocationID is ignored).
func (c *Client) LocationStats(ctx context.Context, q feedback.StatsQuery) (*feedback.LocationStats, error) {
	return call[feedback.LocationStats](ctx, c, "GET", withQuery("/stats/locations", statsValues(q)), nil)
}

// ReviewStats returns a review's rating statistics of q.
func (c *Client) ReviewStats(ctx context.Context, id string, q feedback.StatsQuery) (*feedback.ReviewStats, error) {
	return call[feedback.ReviewStats](ctx, c, "GET", withQuery("/stats/reviews/"+url.PathEscape(id), statsValues(q)), nil)
}

// SurveyStats returns a survey's statistics per question of q.
func (c *Client) SurveyStats(ctx context.Context, id string, q feedback.StatsQuery) (*feedback.SurveyStats, error) {
	return call[feedback.SurveyStats](ctx, c, "GET", withQuery("/stats/surveys/"+url.PathEscape(id), statsValues(q)), nil)
}

// AlertStats returns each location's alert response times for alerts
// triggered from from to to.
func (c *Client) AlertStats(ctx context.Context, from, to time.Time) (*feedback.AlertStats, error) {
	q := feedback.StatsQuery{From: feedback.NewTime(from), To: feedback.NewTime(to)}
	return call[feedback.AlertStats](ctx, c, "GET", withQuery("/stats/alerts", statsValues(q)), nil)
}

// WorkspaceSettings returns the workspace's settings.
func (c *Client) WorkspaceSettings(ctx context.Context) (*feedback.WorkspaceSettings, error) {
	return call[feedback.WorkspaceSettings](ctx, c, "GET", "/workspace/settings", nil)
}

// UpdateWorkspaceSettings changes the workspace's settings.
func (c *Client) UpdateWorkspaceSettings(ctx context.Context, in feedback.WorkspaceSettings) (*feedback.WorkspaceSettings, error) {
	return call[feedback.WorkspaceSettings](ctx, c, "PATCH", "/workspace/settings", in)
}

// AlertRules lists the workspace's alert rules, newest first.
func (c *Client) AlertRules(ctx context.Context, p feedback.ListParams) (*feedback.Page[feedback.AlertRule], error) {
	return list[feedback.AlertRule](ctx, c, "/alert-rules", p)
}

// CreateAlertRule adds an alert rule.
func (c *Client) CreateAlertRule(ctx context.Context, in feedback.AlertRuleInput) (*feedback.AlertRule, error) {
	return call[feedback.AlertRule](ctx, c, "POST", "/alert-rules", in)
}

// UpdateAlertRule changes the non-nil fields of in.
func (c *Client) UpdateAlertRule(ctx context.Context, id string, in feedback.AlertRuleInput) (*feedback.AlertRule, error) {
	return call[feedback.AlertRule](ctx, c, "PATCH", "/alert-rules/"+url.PathEscape(id), in)
}

// DeleteAlertRule removes an alert rule; its alerts stay.
func (c *Client) DeleteAlertRule(ctx context.Context, id string) error {
	_, err := c.Do(ctx, "DELETE", c.api("/alert-rules/"+url.PathEscape(id)), nil, nil)
	return err
}

// Alerts lists alerts, newest first.
func (c *Client) Alerts(ctx context.Context, p feedback.ListParams, f feedback.AlertFilter) (*feedback.Page[feedback.Alert], error) {
	v := p.Values()
	if f.State != "" {
		v.Set("state", f.State)
	}
	if f.RuleID != "" {
		v.Set("rule_id", f.RuleID)
	}
	return call[feedback.Page[feedback.Alert]](ctx, c, "GET", withQuery("/alerts", v), nil)
}

// AcknowledgeAlert acknowledges an open alert.
func (c *Client) AcknowledgeAlert(ctx context.Context, id string) (*feedback.Alert, error) {
	return call[feedback.Alert](ctx, c, "POST", "/alerts/"+url.PathEscape(id)+"/acknowledge", struct{}{})
}

// ResolveAlert resolves an open or acknowledged alert with a note.
func (c *Client) ResolveAlert(ctx context.Context, id, note string) (*feedback.Alert, error) {
	return call[feedback.Alert](ctx, c, "POST", "/alerts/"+url.PathEscape(id)+"/resolve", feedback.AlertResolution{Note: note})
}

// Alert returns one alert, the page an alert's email links to opens.
func (c *Client) Alert(ctx context.Context, id string) (*feedback.Alert, error) {
	return call[feedback.Alert](ctx, c, "GET", "/alerts/"+url.PathEscape(id), nil)
}
