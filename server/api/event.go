package api

import (
	"net/http"
	"strconv"

	"github.com/go-chi/chi/v5"

	"github.com/feedbackhq/feedback/server/http/request"
	"github.com/feedbackhq/feedback/server/http/response"
	"github.com/feedbackhq/feedback/shared/feedback"
)

func (s *Server) registerEventRoutes(r chi.Router) {
	r.Get("/events", s.handle(s.handleEventList))
}

// handleEventList handles "GET /events?after={seq}&limit={n}": the outbox
// in sequence order, for polling integrators and live-feed resume.
func (s *Server) handleEventList(w http.ResponseWriter, r *http.Request) error {
	after, limit, err := eventParams(r)
	if err != nil {
		return err
	}
	events, err := s.store.Events(r.Context(), request.WorkspaceID(r.Context()), after, limit)
	if err != nil {
		return err
	}
	next := after
	if len(events) > 0 {
		next = events[len(events)-1].Seq
	}
	if events == nil {
		events = []feedback.Event{}
	}
	return response.JSON(w, http.StatusOK, feedback.EventList{Data: events, Next: next})
}

func eventParams(r *http.Request) (after int64, limit int, err error) {
	var v feedback.Validator
	q := r.URL.Query()
	for name, vals := range q {
		v.Check(name == "after" || name == "limit", name, "is not a parameter of this endpoint")
		v.Check(len(vals) == 1, name, "must be given once")
	}
	if q.Has("after") {
		n, e := strconv.ParseInt(q.Get("after"), 10, 64)
		v.Check(e == nil && n >= 0, "after", "must be a non-negative integer")
		after = n
	}
	limit = feedback.DefaultEventLimit
	if q.Has("limit") {
		n, e := strconv.Atoi(q.Get("limit"))
		v.Check(e == nil && n >= 1 && n <= feedback.MaxEventLimit, "limit", "must be an integer from 1 to 1000")
		limit = n
	}
	return after, limit, v.ParamErr()
}
