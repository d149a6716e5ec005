package api

import (
	"context"
	"net/http"
	"time"

	"github.com/go-chi/chi/v5"

	"github.com/feedbackhq/feedback/server/http/request"
	"github.com/feedbackhq/feedback/server/http/response"
	"github.com/feedbackhq/feedback/shared/feedback"
)

// paramBucket is the query parameter of a statistics bucket.
const paramBucket = "bucket"

// registerStatsRoutes registers the statistics of what visitors submitted
// (read by tokens and every role) and the workspace's settings (changed
// by admins; viewers are refused by allowed).
func (s *Server) registerStatsRoutes(r chi.Router) {
	r.Get("/stats/hygiene", s.handle(s.handleHygieneStats))
	r.Get("/stats/locations", s.handle(s.handleLocationStats))
	r.Get("/stats/reviews/{id}", s.handle(formStatsHandler(s.store.ReviewStats)))
	r.Get("/stats/surveys/{id}", s.handle(formStatsHandler(s.store.SurveyStats)))
	r.Get("/workspace/settings", s.handle(s.handleSettings))
	r.Patch("/workspace/settings", s.handle(s.handleSettingsUpdate))
}

// handleHygieneStats handles "GET /stats/hygiene?from&to&bucket&location_id".
func (s *Server) handleHygieneStats(w http.ResponseWriter, r *http.Request) error {
	q, err := statsParams(r, true)
	if err != nil {
		return err
	}
	st, err := s.store.HygieneStats(r.Context(), request.WorkspaceID(r.Context()), q)
	if err != nil {
		return err
	}
	return response.JSON(w, http.StatusOK, st)
}

// handleLocationStats handles "GET /stats/locations?from&to&bucket".
func (s *Server) handleLocationStats(w http.ResponseWriter, r *http.Request) error {
	q, err := statsParams(r, false)
	if err != nil {
		return err
	}
	st, err := s.store.LocationStats(r.Context(), request.WorkspaceID(r.Context()), q)
	if err != nil {
		return err
	}
	return response.JSON(w, http.StatusOK, st)
}

// formStatsHandler answers "GET /stats/{reviews,surveys}/{id}?from&to&bucket&location_id"
// with stats, a store's statistics of one review or survey.
func formStatsHandler[T any](stats func(ctx context.Context, ws, id string, q feedback.StatsQuery) (*T, error)) response.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) error {
		id, err := request.PathID(r, "id")
		if err != nil {
			return err
		}
		q, err := statsParams(r, true)
		if err != nil {
			return err
		}
		st, err := stats(r.Context(), request.WorkspaceID(r.Context()), id, q)
		if err != nil {
			return err
		}
		return response.JSON(w, http.StatusOK, st)
	}
}

// statsParams reads a statistics query: from and to (RFC 3339, both
// required, from before to, at most feedback.MaxStatsSpan apart), bucket
// (hour, day or week; day by default) and, when byLocation, location_id.
// Every bad parameter is named in one invalid_parameter problem.
func statsParams(r *http.Request, byLocation bool) (feedback.StatsQuery, error) {
	var v feedback.Validator
	q := r.URL.Query()
	for name, vals := range q {
		known := name == feedback.ParamFrom || name == feedback.ParamTo || name == paramBucket ||
			(byLocation && name == feedback.ParamLocationID)
		v.Check(known, name, "is not a parameter of this endpoint")
		v.Check(len(vals) == 1, name, "must be given once")
	}
	instant := func(name string) feedback.Time {
		if !v.Check(q.Get(name) != "", name, "is required") {
			return feedback.Time{}
		}
		t, err := time.Parse(time.RFC3339Nano, q.Get(name))
		v.Check(err == nil, name, "must be an RFC 3339 date-time such as 2026-11-24T00:00:00+01:00")
		return feedback.NewTime(t)
	}
	sq := feedback.StatsQuery{From: instant(feedback.ParamFrom), To: instant(feedback.ParamTo),
		Bucket: q.Get(paramBucket), LocationID: q.Get(feedback.ParamLocationID)}
	if sq.Bucket == "" {
		sq.Bucket = feedback.BucketDay
	}
	v.Check(sq.Bucket == feedback.BucketHour || sq.Bucket == feedback.BucketDay || sq.Bucket == feedback.BucketWeek,
		paramBucket, "must be hour, day or week")
	if !sq.From.IsZero() && !sq.To.IsZero() {
		v.Check(sq.To.After(sq.From.Time), feedback.ParamTo, "must be after from")
		v.Check(sq.To.Sub(sq.From.Time) <= feedback.MaxStatsSpan, feedback.ParamTo, "must be at most 367 days after from")
	}
	return sq, v.ParamErr()
}

// handleSettings handles "GET /workspace/settings".
func (s *Server) handleSettings(w http.ResponseWriter, r *http.Request) error {
	if err := request.NoQuery(r); err != nil {
		return err
	}
	st, err := s.store.WorkspaceSettings(r.Context(), request.WorkspaceID(r.Context()))
	if err != nil {
		return err
	}
	return response.JSON(w, http.StatusOK, st)
}

// handleSettingsUpdate handles "PATCH /workspace/settings" {time_zone}:
// an IANA time zone name, which the statistics' days, weeks and heatmap
// hours follow from then on. The change is audited.
func (s *Server) handleSettingsUpdate(w http.ResponseWriter, r *http.Request) error {
	var in feedback.WorkspaceSettings
	if err := request.DecodeJSON(w, r, &in, request.MaxJSONBody); err != nil {
		return err
	}
	var v feedback.Validator
	_, err := time.LoadLocation(in.TimeZone)
	v.Check(err == nil && in.TimeZone != "" && in.TimeZone != "Local", "time_zone",
		"must be an IANA time zone name such as Europe/Berlin")
	if err := v.Err(); err != nil {
		return err
	}
	ws := request.WorkspaceID(r.Context())
	st, err := s.store.UpdateWorkspaceSettings(r.Context(), ws, in)
	if err != nil {
		return err
	}
	s.audit.Record(r, &ws, feedback.AuditWorkspaceSettings, "workspace:"+ws, map[string]string{"time_zone": st.TimeZone})
	return response.JSON(w, http.StatusOK, st)
}
