package api

import (
	"bytes"
	"context"
	"net/http"

	"github.com/feedbackhq/feedback/server"
	"github.com/feedbackhq/feedback/server/http/request"
	"github.com/feedbackhq/feedback/server/poster"
	"github.com/feedbackhq/feedback/server/workspace"
	"github.com/feedbackhq/feedback/shared/feedback"
	"github.com/feedbackhq/feedback/shared/i18n"
)

// handlePosterPDF handles "GET /posters/{id}/poster.pdf": a printable A4
// poster in the language of Accept-Language (en, de, fr or es).
func (s *Server) handlePosterPDF(w http.ResponseWriter, r *http.Request) error {
	if err := request.NoQuery(r); err != nil {
		return err
	}
	p, out, err := s.pathPosterWire(r)
	if err != nil {
		return err
	}
	lang := request.Language(r)
	sheet, err := s.posterSheet(r.Context(), p, out.URL, lang)
	if err != nil {
		return err
	}
	var buf bytes.Buffer
	if err := poster.PDF(&buf, sheet); err != nil {
		return err
	}
	w.Header().Set("Content-Type", "application/pdf")
	w.Header().Set("Content-Disposition", `inline; filename="poster-`+p.ID+`.pdf"`)
	w.Header().Set("Cache-Control", "private, max-age=3600")
	_, _ = w.Write(buf.Bytes())
	return nil
}

// posterSheet gathers the texts printed on a poster.
func (s *Server) posterSheet(ctx context.Context, p *server.Poster, url, lang string) (poster.Sheet, error) {
	view, err := workspace.FormView(ctx, s.store, p.WorkspaceID, p.LocationID, p.FormRef, false)
	if err != nil {
		return poster.Sheet{}, err
	}
	sheet := poster.Sheet{Title: view.LocationName, URL: url, Language: lang,
		CallToAction: poster.CallToAction(lang), Footer: p.Label, Created: p.CreatedAt.Time}
	switch p.Form {
	case feedback.FormHygiene:
		sheet.Subtitle = i18n.T(lang, "hygiene_title")
	case feedback.FormReview:
		sheet.Subtitle = view.Review.Title
	case feedback.FormSurvey:
		sheet.Subtitle = view.Survey.Title
	}
	return sheet, nil
}
