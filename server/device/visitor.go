package device

import (
	"context"
	"net/http"
	"net/url"

	"github.com/go-chi/chi/v5"

	"github.com/feedbackhq/feedback/server/http/request"
	"github.com/feedbackhq/feedback/server/http/response"
	"github.com/feedbackhq/feedback/server/secret"
	"github.com/feedbackhq/feedback/server/workspace"
	"github.com/feedbackhq/feedback/shared/feedback"
	"github.com/feedbackhq/feedback/shared/i18n"
)

// maxVisitBody is the size limit of a visitor's submission.
const maxVisitBody = 64 << 10

// errInvalidCode answers every code that is malformed, unknown or forged,
// without saying which.
var errInvalidCode = feedback.Errorf(feedback.ENotFound, "This QR code is not valid.")

// posterTarget resolves a poster code to where its submissions go. A
// revoked poster resolves, with RevokedAt set.
func (s *Server) posterTarget(ctx context.Context, code string) (*target, error) {
	id, mac, ok := secret.ParsePosterCode(code)
	if !ok {
		return nil, errInvalidCode
	}
	p, err := s.store.PosterByID(ctx, id)
	if feedback.ErrorCode(err) == feedback.ENotFound {
		return nil, errInvalidCode
	}
	if err != nil {
		return nil, err
	}
	key, err := s.posters.Key(ctx, p.WorkspaceID)
	if err != nil {
		return nil, err
	}
	if !secret.VerifyPoster(key, p.ID, mac) {
		return nil, errInvalidCode
	}
	view, err := workspace.FormView(ctx, s.store, p.WorkspaceID, p.LocationID, p.FormRef, p.RevokedAt != nil)
	if err != nil {
		return nil, err
	}
	t := &target{WorkspaceID: p.WorkspaceID, LocationID: p.LocationID, PosterID: p.ID,
		Source: feedback.SourceQR, FormRef: p.FormRef, View: view}
	if p.RevokedAt != nil {
		at := p.RevokedAt.Time
		t.RevokedAt = &at
	}
	return t, nil
}

// handleVisitorForm handles "GET /q/{code}": the form as plain HTML that
// works without JavaScript, with a fresh submission id.
func (s *Server) handleVisitorForm(w http.ResponseWriter, r *http.Request) error {
	code := chi.URLParam(r, "code")
	if err := s.local.Take(w, r, "visit-ip:"+request.ClientIP(r), s.limits.PerIP); err != nil {
		return err
	}
	t, err := s.posterTarget(r.Context(), code)
	if err != nil {
		return err
	}
	if err := t.accepts(s.now(), s.now()); err != nil {
		return err
	}
	s.renderForm(w, request.Language(r), code, t.View, feedback.NewIDAt(s.now()), nil, nil)
	return nil
}

// handleVisitorSubmit handles "POST /q/{code}": JSON from the app and its
// offline queue, or a form post from the HTML page. Only a browser's
// form post gets pages; everything else is an API client and gets
// problems.
func (s *Server) handleVisitorSubmit() http.HandlerFunc {
	form, api := s.pages.Handle(s.submitForm), s.errs.Handle(s.submitJSON)
	return func(w http.ResponseWriter, r *http.Request) {
		if request.IsMediaType(r, "application/x-www-form-urlencoded") {
			form(w, r)
		} else {
			api(w, r)
		}
	}
}

// submitJSON handles a JSON submission: 201 new, 200 repeated, 409
// conflicting.
func (s *Server) submitJSON(w http.ResponseWriter, r *http.Request) error {
	t, err := s.submitTarget(w, r)
	if err != nil {
		return err
	}
	var sub feedback.Submission
	if !request.IsMediaType(r, "application/json") {
		return feedback.Errorf(feedback.EUnsupportedMediaType,
			"The body must be application/json or application/x-www-form-urlencoded.")
	}
	if err := request.DecodeJSON(w, r, &sub, maxVisitBody); err != nil {
		return err
	}
	rec, created, err := s.ingest(r.Context(), t, &sub, request.Language(r))
	if err != nil {
		return err
	}
	status := http.StatusOK
	if created {
		status = http.StatusCreated
	}
	return response.JSON(w, status, rec)
}

// submitForm handles a form post: 303 to the thank-you page, or the form
// again with what is invalid. The page's language, posted with the form,
// is the language of the answer.
func (s *Server) submitForm(w http.ResponseWriter, r *http.Request) error {
	lang, code := request.Language(r), chi.URLParam(r, "code")
	t, err := s.submitTarget(w, r)
	if err != nil {
		return err
	}
	sub, err := decodeForm(w, r, t)
	if l, ok := i18n.Normalize(sub.Language); ok {
		lang = l
	}
	if err == nil {
		_, _, err = s.ingest(r.Context(), t, &sub, lang)
	}
	switch {
	case feedback.ErrorCode(err) == feedback.EValidation:
		s.renderForm(w, lang, code, t.View, sub.ID, err, &sub)
		return nil
	case err != nil:
		return &inLanguage{err: err, lang: lang}
	}
	http.Redirect(w, r, "/q/"+code+"/thanks?lang="+url.QueryEscape(lang), http.StatusSeeOther)
	return nil
}

// submitTarget counts a submission against the budgets of its client IP
// and its poster, and resolves the poster.
func (s *Server) submitTarget(w http.ResponseWriter, r *http.Request) (*target, error) {
	code := chi.URLParam(r, "code")
	err := s.local.Take(w, r, "submit-ip:"+request.ClientIP(r), s.limits.PerIP)
	if err == nil {
		err = s.local.Take(w, r, "submit-poster:"+code, s.limits.PerPoster)
	}
	if err != nil {
		return nil, err
	}
	now := s.now()
	if t, ok := s.targets.get(code, now); ok {
		return s.withForm(r.Context(), t)
	}
	t, err := s.posterTarget(r.Context(), code)
	if err == nil {
		s.targets.put(code, t, now)
	}
	return t, err
}

// withForm returns a copy of a cached target with its review or survey
// read again, so that a change of status takes effect at once; a
// hygiene target is returned as it is.
func (s *Server) withForm(ctx context.Context, t *target) (*target, error) {
	if t.Form == feedback.FormHygiene {
		return t, nil
	}
	c, view := *t, *t.View
	if err := workspace.LoadForm(ctx, s.store, t.WorkspaceID, t.FormRef, &view); err != nil {
		return nil, err
	}
	c.View = &view
	return &c, nil
}

// decodeForm reads a form-encoded submission.
func decodeForm(w http.ResponseWriter, r *http.Request, t *target) (feedback.Submission, error) {
	body, err := request.ReadBody(w, r, maxVisitBody)
	if err != nil {
		return feedback.Submission{}, err
	}
	vals, err := url.ParseQuery(string(body))
	if err != nil {
		return feedback.Submission{}, feedback.Errorf(feedback.EMalformedBody, "The form data could not be read.")
	}
	return feedback.SubmissionFromForm(vals, t.View.Survey)
}

// handleVisitorThanks handles "GET /q/{code}/thanks".
func (s *Server) handleVisitorThanks(w http.ResponseWriter, r *http.Request) error {
	code := chi.URLParam(r, "code")
	if !secret.PosterCodePattern.MatchString(code) {
		return errInvalidCode
	}
	s.renderThanks(w, request.Language(r), code)
	return nil
}
