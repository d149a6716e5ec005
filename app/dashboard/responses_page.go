package dashboard

import (
	"context"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"github.com/feedbackhq/feedback/shared/client"
	"github.com/feedbackhq/feedback/shared/feedback"
)

// responsesPage is what visitors answered to a review
// (/w/{slug}/responses?review=ID) or a survey (?survey=ID): a page at a
// time, newest first, between two days and at one location, each
// response in full with the texts of the questions it answers.
type responsesPage struct {
	app.Compo
	requests
	Shell     *Shell
	Workspace *feedback.Membership

	api     *client.Client
	kind    feedback.FormKind
	id      string
	title   string
	survey  *feedback.Survey // the questions, for a survey
	cat     catalog
	problem string

	from, to string // the days typed, YYYY-MM-DD; "" for no bound
	loc      string // the location chosen; "" for all
	page     int
	filter   responseFilter // what the list on screen was read with
	reviews  []feedback.ReviewResponse
	answers  []feedback.SurveyResponse
	meta     feedback.Meta
	loaded   bool
	loading  bool
	errs     map[string]string // the service's reasons, by parameter
	listMsg  string            // why the list could not be read
	stats    formStats         // the results' charts (responses_stats.go)
}

// responseFilter is the filter of a list read.
type responseFilter struct {
	from, to, loc string
	page          int
}

// responsesPerPage is how many responses a page shows.
const responsesPerPage = 20

// OnMount reads the form and the locations, then the newest responses.
func (p *responsesPage) OnMount(ctx app.Context) {
	p.mount(ctx)
	p.page = 1
	if !app.IsClient || p.Workspace == nil {
		return
	}
	p.api = workspaceAPI(p.Workspace)
	q := ctx.Page().URL().Query()
	p.kind, p.id = feedback.FormReview, q.Get("review")
	if p.id == "" {
		p.kind, p.id = feedback.FormSurvey, q.Get("survey")
	}
	p.async(func(c context.Context) func(app.Context) {
		title, s, err := p.readForm(c)
		var cat catalog
		if err == nil {
			cat, err = readCatalog(c, p.api)
		}
		return func(ctx app.Context) {
			if err != nil {
				p.fail(err)
				return
			}
			p.title, p.survey, p.cat = title, s, cat
			p.load()
		}
	})
}

// OnDismount cancels the page's requests.
func (p *responsesPage) OnDismount() { p.dismount() }

// readForm reads the review's title, or the survey with its questions.
func (p *responsesPage) readForm(c context.Context) (string, *feedback.Survey, error) {
	if p.kind == feedback.FormReview {
		r, err := p.api.Review(c, p.id)
		if err != nil {
			return "", nil, explain(err)
		}
		return r.Title, nil, nil
	}
	s, err := p.api.Survey(c, p.id)
	if err != nil {
		return "", nil, explain(err)
	}
	return s.Title, s, nil
}

// fail shows why the page could not be read.
func (p *responsesPage) fail(err error) {
	p.Shell.refused(err, "The "+string(p.kind)+" could not be loaded: ", func(msg string) { p.problem = msg })
}

// load reads the page of responses that the filter asks for.
func (p *responsesPage) load() {
	if p.loading {
		return
	}
	p.loading, p.listMsg, p.errs = true, "", nil
	f := responseFilter{from: p.from, to: p.to, loc: p.loc, page: p.page}
	params := f.params()
	if f.page == 1 {
		p.loadStats(f)
	}
	p.async(func(c context.Context) func(app.Context) {
		var reviews *feedback.Page[feedback.ReviewResponse]
		var answers *feedback.Page[feedback.SurveyResponse]
		var err error
		if p.kind == feedback.FormReview {
			reviews, err = p.api.ReviewResponses(c, p.id, params)
		} else {
			answers, err = p.api.SurveyResponses(c, p.id, params)
		}
		return func(ctx app.Context) {
			p.loading = false
			if err != nil {
				p.errs = fieldErrors(err)
				p.Shell.refused(explain(err), "The responses could not be loaded: ", func(msg string) { p.listMsg = msg })
				return
			}
			p.filter, p.loaded = f, true
			if reviews != nil {
				p.reviews, p.meta = reviews.Data, reviews.Meta
			} else {
				p.answers, p.meta = answers.Data, answers.Meta
			}
		}
	})
}

// params are the list parameters of the filter.
func (f responseFilter) params() feedback.ListParams {
	from, to := dayRange(f.from, f.to)
	return feedback.ListParams{Page: f.page, PerPage: responsesPerPage, From: from, To: to, LocationID: f.loc}
}

// exportHref is the download link, in format, of the responses the
// list on screen was read with (every page).
func (p *responsesPage) exportHref(format string) string {
	path := "/api/v1/surveys/" + p.id + "/responses/export"
	if p.kind == feedback.FormReview {
		path = "/api/v1/review/" + p.id + "/responses/export"
	}
	return exportHref(path, p.filter.params(), format, p.Workspace.Slug)
}

// turn shows page n of the filtered responses.
func (p *responsesPage) turn(ctx app.Context, n int) {
	p.page = n
	p.from, p.to, p.loc = p.filter.from, p.filter.to, p.filter.loc
	p.load()
	focusLater(ctx, statusID)
}
