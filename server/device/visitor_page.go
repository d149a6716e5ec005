package device

import (
	"errors"
	"net/http"

	"github.com/feedbackhq/feedback/app/pwa"
	"github.com/feedbackhq/feedback/server/http/page"
	"github.com/feedbackhq/feedback/server/http/request"
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
	page.Render(w, status, lang, v.LocationName, p)
}

// renderThanks prerenders the page a form post is redirected to.
func (s *Server) renderThanks(w http.ResponseWriter, lang, code string) {
	page.Render(w, http.StatusOK, lang, i18n.T(lang, "thanks_title"), pwa.VisitorThanks(code, lang))
}

// errorPage answers err as a visitor's page with its status, in the
// request's language or the one err names, and returns the status.
func (s *Server) errorPage(w http.ResponseWriter, r *http.Request, err error) int {
	lang := request.Language(r)
	if l := (*inLanguage)(nil); errors.As(err, &l) {
		lang = l.lang
	}
	status := response.Status(err)
	page.Render(w, status, lang, http.StatusText(status), pwa.VisitorProblem(lang, feedback.ErrorCode(err)))
	return status
}

// inLanguage is an error to answer in a page of lang rather than the
// request's.
type inLanguage struct {
	err  error
	lang string
}

func (e *inLanguage) Error() string { return e.err.Error() }

func (e *inLanguage) Unwrap() error { return e.err }
