package api

import (
	"bytes"
	"context"
	"fmt"
	"net/http"
	"strings"

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
	sheet, err := s.posterSheet(r.Context(), p, out.URL, lang, nil)
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

// handlePostersPDF handles "GET /posters/print.pdf?ids=…": the posters
// named, a page each in their order, in one A4 PDF to print at once, in
// the language of Accept-Language. An unknown id (or another
// workspace's) answers 404, as for one poster.
func (s *Server) handlePostersPDF(w http.ResponseWriter, r *http.Request) error {
	ids, err := printIDs(r)
	if err != nil {
		return err
	}
	ws, lang := request.WorkspaceID(r.Context()), request.Language(r)
	sheets, views := make([]poster.Sheet, 0, len(ids)), map[viewKey]*feedback.FormView{}
	for _, id := range ids {
		p, err := s.store.Poster(r.Context(), ws, id)
		if err != nil {
			return err
		}
		out, err := s.posterWire(r.Context(), p)
		if err != nil {
			return err
		}
		sheet, err := s.posterSheet(r.Context(), p, out.URL, lang, views)
		if err != nil {
			return err
		}
		sheets = append(sheets, sheet)
	}
	var buf bytes.Buffer
	if err := poster.PDFs(&buf, sheets); err != nil {
		return err
	}
	w.Header().Set("Content-Type", "application/pdf")
	w.Header().Set("Content-Disposition", `inline; filename="posters.pdf"`)
	w.Header().Set("Cache-Control", "private, no-store")
	_, _ = w.Write(buf.Bytes())
	return nil
}

// printIDs reads the ids parameter: 1 to feedback.MaxPrintPosters poster
// ids, comma separated, each once.
func printIDs(r *http.Request) ([]string, error) {
	q := r.URL.Query()
	var v feedback.Validator
	for name, vals := range q {
		v.Check(name == "ids", name, "is not a parameter of this endpoint")
		v.Check(len(vals) == 1, name, "must be given once")
	}
	var ids []string
	seen := map[string]bool{}
	for _, raw := range strings.Split(q.Get("ids"), ",") {
		id, ok := feedback.ParseUUID(strings.TrimSpace(raw))
		if !ok || seen[id] {
			v.Add("ids", "must be poster ids separated by commas, each once")
			break
		}
		seen[id] = true
		ids = append(ids, id)
	}
	v.Check(len(ids) <= feedback.MaxPrintPosters, "ids", fmt.Sprintf("must name at most %d posters", feedback.MaxPrintPosters))
	return ids, v.ParamErr()
}

// viewKey names what a poster shows: its location and its form.
type viewKey struct {
	location string
	form     feedback.FormRef
}

// posterSheet gathers the texts printed on a poster. It reads the
// location and the form through views (when not nil), which keeps each
// it read: the posters of one print mostly share them.
func (s *Server) posterSheet(ctx context.Context, p *server.Poster, url, lang string, views map[viewKey]*feedback.FormView) (poster.Sheet, error) {
	key := viewKey{p.LocationID, p.FormRef}
	view := views[key]
	if view == nil {
		var err error
		if view, err = workspace.FormView(ctx, s.store, p.WorkspaceID, p.LocationID, p.FormRef, false); err != nil {
			return poster.Sheet{}, err
		}
		if views != nil {
			views[key] = view
		}
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
