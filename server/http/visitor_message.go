package http

import (
	"net/http"

	"github.com/feedbackhq/feedback/app/pwa"
	"github.com/feedbackhq/feedback/server/http/response"
	"github.com/feedbackhq/feedback/shared/feedback"
	"github.com/feedbackhq/feedback/shared/i18n"
)

// renderForm prerenders the visitor form; err, when it is a validation
// error, is listed above the form, and sub's values are kept.
func (s *Server) renderForm(w http.ResponseWriter, lang, code string, v *feedback.FormView, id string, err error, sub *feedback.Submission) {
	if _, ok := feedback.ParseUUID(id); !ok {
		id = feedback.NewIDAt(s.now()) // a malformed id posted back is never written into the page
	}
	p := pwa.VisitorForm(pwa.Form{Code: code, Lang: lang, ID: id, View: v, Errors: err, Posted: sub})
	status := http.StatusOK
	if err != nil {
		status = http.StatusUnprocessableEntity
	}
	renderApp(w, status, lang, v.LocationName, p)
}

// renderThanks prerenders the page a form post is redirected to.
func (s *Server) renderThanks(w http.ResponseWriter, lang, code string) {
	renderApp(w, http.StatusOK, lang, i18n.T(lang, "thanks_title"), pwa.VisitorThanks(code, lang))
}

// visitorError renders err as a readable page with its status.
func (s *Server) visitorError(w http.ResponseWriter, r *http.Request, lang string, err error) {
	status := response.Status(err)
	if status >= 500 {
		s.log.ErrorContext(r.Context(), "visitor request failed", "err", err, "path", r.URL.Path)
	}
	renderApp(w, status, lang, http.StatusText(status), pwa.VisitorProblem(lang, feedback.ErrorCode(err)))
}
