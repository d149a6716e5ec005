package api

import (
	"net/http"
	"time"

	"github.com/go-chi/chi/v5"

	"github.com/feedbackhq/feedback/server/http/request"
	"github.com/feedbackhq/feedback/server/http/response"
	"github.com/feedbackhq/feedback/shared/feedback"
)

func (s *Server) registerSummaryRoutes(r chi.Router) {
	r.Get("/summary", s.handle(s.handleSummary))
}

// handleSummary handles "GET /summary?from={t}&to={t}": per location, the
// count and rating sum of the hygiene submissions and review responses
// and the count of the survey responses created in [from, to). The
// dashboard asks for the browser's local day.
func (s *Server) handleSummary(w http.ResponseWriter, r *http.Request) error {
	from, to, err := summaryParams(r)
	if err != nil {
		return err
	}
	locs, err := s.store.Summary(r.Context(), request.WorkspaceID(r.Context()), from, to)
	if err != nil {
		return err
	}
	return response.JSON(w, http.StatusOK, feedback.Summary{From: feedback.NewTime(from), To: feedback.NewTime(to), Locations: locs})
}

// summaryParams reads from and to, both required, to after from and at
// most feedback.MaxSummarySpan later.
func summaryParams(r *http.Request) (from, to time.Time, err error) {
	var v feedback.Validator
	q := r.URL.Query()
	for name, vals := range q {
		v.Check(name == feedback.ParamFrom || name == feedback.ParamTo, name, "is not a parameter of this endpoint")
		v.Check(len(vals) == 1, name, "must be given once")
	}
	bound := func(name string) time.Time {
		if !v.Check(q.Get(name) != "", name, "is required") {
			return time.Time{}
		}
		t, err := feedback.ParseTimeBound(q.Get(name))
		v.Check(err == nil, name, "must be an RFC 3339 date-time or a date YYYY-MM-DD")
		return t
	}
	from, to = bound(feedback.ParamFrom), bound(feedback.ParamTo)
	if v.Valid() {
		v.Check(to.After(from), feedback.ParamTo, "must be after from")
		v.Check(to.Sub(from) <= feedback.MaxSummarySpan, feedback.ParamTo, "must be at most 31 days after from")
	}
	return from, to, v.ParamErr()
}
