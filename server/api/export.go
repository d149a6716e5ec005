package api

import (
	"bufio"
	"encoding/csv"
	"encoding/json"
	"net/http"
	"net/url"
	"time"

	"github.com/go-chi/chi/v5"

	"github.com/feedbackhq/feedback/server/http/request"
	"github.com/feedbackhq/feedback/shared/feedback"
)

func (s *Server) registerExportRoutes(r chi.Router) {
	r.Get("/hygiene/export", s.handle(s.handleHygieneExport))
	r.Get("/review/{id}/responses/export", s.handle(s.handleReviewExport))
	r.Get("/surveys/{id}/responses/export", s.handle(s.handleSurveyExport))
}

// Export formats.
const (
	formatCSV    = "csv"
	formatNDJSON = "ndjson"
)

// exportWait is how long one batch of an export may take to reach the
// client: the server's write timeout is for requests, and an export of
// a million rows takes longer than one.
const exportWait = time.Minute

// parseExport reads the format and the list filters of an export; it
// takes no page: an export is the whole filtered list (after cursor).
// The workspace parameter was read by the session's authentication (a
// download link cannot send the workspace header); a token's request
// may name only the token's own workspace.
func (s *Server) parseExport(r *http.Request, filters ...string) (string, feedback.ListParams, error) {
	q := cloneQuery(r.URL.Query())
	var v feedback.Validator
	if q.Has("workspace") {
		p, ws := request.PrincipalOf(r.Context()), q.Get("workspace")
		v.Check(p.SessionID != "" || ws == p.WorkspaceID || ws == s.slugOf(r, p.WorkspaceID),
			"workspace", "names another workspace than the API token's")
		q.Del("workspace")
	}
	format := formatCSV
	if q.Has("format") {
		format = q.Get("format")
		v.Check(len(q["format"]) == 1, "format", "must be given once")
		v.Check(format == formatCSV || format == formatNDJSON, "format", "must be csv or ndjson")
		q.Del("format")
	}
	for _, name := range []string{feedback.ParamPage, feedback.ParamPerPage} {
		v.Check(!q.Has(name), name, "is not a parameter of an export, which answers the whole list")
	}
	if err := v.ParamErr(); err != nil {
		return "", feedback.ListParams{}, err
	}
	p, err := feedback.ParseListParams(q, filters...)
	return format, p, err
}

// cloneQuery returns a copy of q that can be changed.
func cloneQuery(q url.Values) url.Values {
	c := make(url.Values, len(q))
	for k, v := range q {
		c[k] = v
	}
	return c
}

// export writes an export's rows as they come, CSV or NDJSON. Nothing is
// written before the first batch (or the end): an error until then is
// answered as a problem. An error after that aborts the response, so
// that the client sees a broken transfer, never a short file that looks
// whole.
type export struct {
	w        http.ResponseWriter
	rc       *http.ResponseController
	format   string
	filename string
	header   []string // the CSV header
	buf      *bufio.Writer
	csv      *csv.Writer
	line     []byte
}

// newExport returns the export of a list named name (the file's name
// without its extension) with the CSV header.
func newExport(w http.ResponseWriter, format, name string, header []string) *export {
	return &export{w: w, rc: http.NewResponseController(w), format: format, header: header,
		filename: name + "-" + time.Now().UTC().Format("2006-01-02") + "." + format}
}

// start sends the status and the headers, and the CSV header, once.
func (e *export) start() {
	if e.buf != nil {
		return
	}
	h := e.w.Header()
	if e.format == formatCSV {
		h.Set("Content-Type", "text/csv; charset=utf-8; header=present")
	} else {
		h.Set("Content-Type", "application/x-ndjson")
	}
	h.Set("Content-Disposition", `attachment; filename="`+e.filename+`"`)
	h.Set("Cache-Control", "no-store")
	e.w.WriteHeader(http.StatusOK)
	e.buf = bufio.NewWriterSize(e.w, 64<<10)
	if e.format == formatCSV {
		e.csv = csv.NewWriter(e.buf)
		e.check(e.csv.Write(e.header))
	}
}

// csvRow writes one CSV record.
func (e *export) csvRow(record []string) { e.check(e.csv.Write(record)) }

// jsonRow writes item's JSON on a line.
func (e *export) jsonRow(item any) {
	if a, ok := item.(feedback.JSONAppender); ok {
		e.line = append(a.AppendJSON(e.line[:0]), '\n')
	} else {
		b, err := json.Marshal(item)
		e.check(err)
		e.line = append(append(e.line[:0], b...), '\n')
	}
	_, err := e.buf.Write(e.line)
	e.check(err)
}

// batch starts the export if it has not started, and gives the next
// batch exportWait to reach the client.
func (e *export) batch() {
	e.start()
	_ = e.rc.SetWriteDeadline(time.Now().Add(exportWait))
}

// finish ends the export after its last batch, or answers err.
func (e *export) finish(err error) error {
	if err != nil && e.buf == nil {
		return err // nothing was sent: a problem
	}
	e.check(err)
	e.start() // an empty list is a header alone
	if e.csv != nil {
		e.csv.Flush()
		e.check(e.csv.Error())
	}
	e.check(e.buf.Flush())
	return nil
}

// check aborts the response on err, once rows were sent.
func (e *export) check(err error) {
	if err != nil {
		panic(http.ErrAbortHandler)
	}
}

// exportFilters are the parameters every export takes.
var exportFilters = []string{feedback.ParamFrom, feedback.ParamTo, feedback.ParamLocationID, feedback.ParamCursor}

// hygieneFilters are the parameters of the hygiene list and its export.
var hygieneFilters = append([]string{feedback.ParamRating, feedback.ParamTag}, exportFilters...)

// exportJob is what an export reads before it writes: the form's id in
// the path (when it has one), the format and filters, the workspace, and
// its locations' names.
type exportJob struct {
	id, format, ws string
	p              feedback.ListParams
	names          map[string]string
}

// prepareExport reads an export's request; withID, the form's id in the
// path too.
func (s *Server) prepareExport(r *http.Request, withID bool, filters []string) (j exportJob, err error) {
	if withID {
		if j.id, err = request.PathID(r, "id"); err != nil {
			return j, err
		}
	}
	if j.format, j.p, err = s.parseExport(r, filters...); err != nil {
		return j, err
	}
	j.ws = request.WorkspaceID(r.Context())
	j.names, err = s.locationNames(r, j.ws)
	return j, err
}

// stream writes the rows that each hands over, a batch at a time, as
// record makes them, and ends the export.
func stream[T any](e *export, each func(fn func([]T) error) error, record func(T) []string) error {
	return e.finish(each(func(items []T) error {
		e.batch()
		for _, x := range items {
			if e.csv != nil {
				e.csvRow(record(x))
			} else {
				e.jsonRow(x)
			}
		}
		return nil
	}))
}

// handleHygieneExport handles "GET /hygiene/export".
func (s *Server) handleHygieneExport(w http.ResponseWriter, r *http.Request) error {
	j, err := s.prepareExport(r, false, hygieneFilters)
	if err != nil {
		return err
	}
	return stream(newExport(w, j.format, "hygiene", hygieneHeader),
		func(fn func([]feedback.HygieneSubmission) error) error {
			return s.store.EachHygiene(r.Context(), j.ws, j.p, fn)
		},
		func(h feedback.HygieneSubmission) []string { return hygieneRecord(h, j.names) })
}

// handleReviewExport handles "GET /review/{id}/responses/export".
func (s *Server) handleReviewExport(w http.ResponseWriter, r *http.Request) error {
	j, err := s.prepareExport(r, true, exportFilters)
	if err != nil {
		return err
	}
	return stream(newExport(w, j.format, "review-responses", reviewHeader),
		func(fn func([]feedback.ReviewResponse) error) error {
			return s.store.EachReviewResponse(r.Context(), j.ws, j.id, j.p, fn)
		},
		func(x feedback.ReviewResponse) []string { return reviewRecord(x, j.names) })
}

// handleSurveyExport handles "GET /surveys/{id}/responses/export": one
// CSV column per question.
func (s *Server) handleSurveyExport(w http.ResponseWriter, r *http.Request) error {
	j, err := s.prepareExport(r, true, exportFilters)
	if err != nil {
		return err
	}
	survey, err := s.store.Survey(r.Context(), j.ws, j.id)
	if err != nil {
		return err
	}
	return stream(newExport(w, j.format, "survey-responses", surveyHeader(survey.Questions)),
		func(fn func([]feedback.SurveyResponse) error) error {
			return s.store.EachSurveyResponse(r.Context(), j.ws, j.id, j.p, fn)
		},
		func(x feedback.SurveyResponse) []string { return surveyRecord(x, survey.Questions, j.names) })
}

// locationNames returns the names of the workspace's locations by id.
func (s *Server) locationNames(r *http.Request, ws string) (map[string]string, error) {
	names := map[string]string{}
	for page := 1; ; page++ {
		ls, total, err := s.store.Locations(r.Context(), ws, feedback.ListParams{Page: page, PerPage: feedback.MaxPerPage})
		if err != nil {
			return nil, err
		}
		for _, l := range ls {
			names[l.ID] = l.Name
		}
		if len(ls) == 0 || page*feedback.MaxPerPage >= total || page >= feedback.MaxPage {
			return names, nil
		}
	}
}
