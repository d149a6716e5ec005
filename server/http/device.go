package http

import (
	"net/http"

	"github.com/feedbackhq/feedback/shared/feedback"
)

// visitorPages renders the visitor's pages for package device.
type visitorPages struct{ s *Server }

// Form writes the visitor's form.
func (p visitorPages) Form(w http.ResponseWriter, lang, code string, v *feedback.FormView, id string, err error, sub *feedback.Submission) {
	p.s.renderForm(w, lang, code, v, id, err, sub)
}

// Thanks writes the thank-you page.
func (p visitorPages) Thanks(w http.ResponseWriter, lang, code string) {
	p.s.renderThanks(w, lang, code)
}

// Problem writes the page of err.
func (p visitorPages) Problem(w http.ResponseWriter, r *http.Request, lang string, err error) {
	p.s.visitorError(w, r, lang, err)
}
