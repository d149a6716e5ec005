package http

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

func (s *Server) registerVisitorRoutes(r chi.Router) {
	r.Get("/q/{code}", s.handleVisitorForm)
	r.Post("/q/{code}", s.handleVisitorSubmit)
	r.Get("/q/{code}/thanks", s.handleVisitorThanks)
}

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
func (s *Server) handleVisitorForm(w http.ResponseWriter, r *http.Request) {
	lang := request.Language(r)
	code := chi.URLParam(r, "code")
	var t *target
	err := s.local.Take(w, r, "visit-ip:"+request.ClientIP(r), s.limits.PerIP)
	if err == nil {
		t, err = s.posterTarget(r.Context(), code)
	}
	if err == nil {
		err = t.accepts(s.now(), s.now())
	}
	if err != nil {
		s.visitorError(w, r, lang, err)
		return
	}
	s.renderForm(w, lang, code, t.View, feedback.NewIDAt(s.now()), nil, nil)
}

// handleVisitorSubmit handles "POST /q/{code}": JSON from the app and its
// offline queue (201 new, 200 repeated, 409 conflicting) or a form post
// from the HTML page (303 to the thank-you page).
func (s *Server) handleVisitorSubmit(w http.ResponseWriter, r *http.Request) {
	lang := request.Language(r)
	// Only a browser's form post gets pages; everything else is an API
	// client and gets problems.
	asJSON := !request.IsMediaType(r, "application/x-www-form-urlencoded")
	fail := func(err error) {
		if asJSON {
			s.errs.Write(w, r, err)
		} else {
			s.visitorError(w, r, lang, err)
		}
	}
	code := chi.URLParam(r, "code")
	err := s.local.Take(w, r, "submit-ip:"+request.ClientIP(r), s.limits.PerIP)
	if err == nil {
		err = s.local.Take(w, r, "submit-poster:"+code, s.limits.PerPoster)
	}
	if err != nil {
		fail(err)
		return
	}
	t, err := s.posterTarget(r.Context(), code)
	if err != nil {
		fail(err)
		return
	}
	sub, err := s.decodeSubmission(w, r, t, asJSON)
	if l, ok := i18n.Normalize(sub.Language); ok && !asJSON {
		lang = l // the page's language: a refusal or the thanks come back in it
	}
	var rec any
	var created bool
	if err == nil {
		rec, created, err = s.ingest(r.Context(), t, &sub, lang)
	}
	if err != nil {
		if !asJSON && feedback.ErrorCode(err) == feedback.EValidation {
			s.renderForm(w, lang, code, t.View, sub.ID, err, &sub)
			return
		}
		fail(err)
		return
	}
	if !asJSON {
		http.Redirect(w, r, "/q/"+code+"/thanks?lang="+url.QueryEscape(lang), http.StatusSeeOther)
		return
	}
	status := http.StatusOK
	if created {
		status = http.StatusCreated
	}
	_ = response.JSON(w, status, rec)
}

// decodeSubmission reads a JSON or form-encoded submission.
func (s *Server) decodeSubmission(w http.ResponseWriter, r *http.Request, t *target, asJSON bool) (feedback.Submission, error) {
	var sub feedback.Submission
	if asJSON {
		if !request.IsMediaType(r, "application/json") {
			return sub, feedback.Errorf(feedback.EUnsupportedMediaType,
				"The body must be application/json or application/x-www-form-urlencoded.")
		}
		return sub, request.DecodeJSON(w, r, &sub, maxVisitBody)
	}
	body, err := request.ReadBody(w, r, maxVisitBody)
	if err != nil {
		return sub, err
	}
	vals, err := url.ParseQuery(string(body))
	if err != nil {
		return sub, feedback.Errorf(feedback.EMalformedBody, "The form data could not be read.")
	}
	return feedback.SubmissionFromForm(vals, t.View.Survey)
}

// handleVisitorThanks handles "GET /q/{code}/thanks".
func (s *Server) handleVisitorThanks(w http.ResponseWriter, r *http.Request) {
	lang := request.Language(r)
	code := chi.URLParam(r, "code")
	if !secret.PosterCodePattern.MatchString(code) {
		s.visitorError(w, r, lang, errInvalidCode)
		return
	}
	s.renderThanks(w, lang, code)
}
