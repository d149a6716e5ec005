package dashboard

import (
	"context"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"github.com/feedbackhq/feedback/shared/client"
	"github.com/feedbackhq/feedback/shared/feedback"
)

// hygienePerPage is how many reports a page of the list shows.
const hygienePerPage = 50

// hygienePage is a workspace's hygiene reports at /w/{slug}/hygiene: the
// list filtered by location and by days, page by page, and the filtered
// list's export as CSV or NDJSON. Shell is the frame it is shown in.
type hygienePage struct {
	app.Compo
	requests
	Shell     *Shell
	Workspace *feedback.Membership

	api     *client.Client
	cat     catalog
	filter  hygieneFilter
	list    *feedback.Page[feedback.HygieneSubmission]
	loading bool
	problem string // why the last read failed
}

// hygieneFilter is what the list is filtered by: a location id, the
// first and last day (YYYY-MM-DD in the browser's time zone), the
// ratings (a [ratingChoices] value) and a tag, "" for any.
type hygieneFilter struct {
	location, from, to string
	rating, tag        string
	page               int
}

// ratingChoices are the rating filter's choices: its value, its text,
// and the ratings it keeps.
var ratingChoices = []struct {
	value, text string
	ratings     []int
}{
	{"low", "Low (1–2)", []int{1, 2}},
	{"1", "1 of 5", []int{1}}, {"2", "2 of 5", []int{2}}, {"3", "3 of 5", []int{3}},
	{"4", "4 of 5", []int{4}}, {"5", "5 of 5", []int{5}},
	{"high", "High (4–5)", []int{4, 5}},
}

// ratings returns the ratings the filter keeps, nil for any.
func (f hygieneFilter) ratings() []int {
	for _, c := range ratingChoices {
		if c.value == f.rating {
			return c.ratings
		}
	}
	return nil
}

// OnMount reads the locations and the first page.
func (p *hygienePage) OnMount(ctx app.Context) {
	p.mount(ctx)
	if !app.IsClient || p.Workspace == nil {
		return
	}
	p.api = workspaceAPI(p.Workspace)
	p.filter.page = 1
	p.load()
}

// OnDismount cancels the page's requests.
func (p *hygienePage) OnDismount() { p.dismount() }

// params are the list parameters of the filter: its days from the start
// of the first to the end of the last, in the browser's time zone.
func (f hygieneFilter) params() feedback.ListParams {
	lp := feedback.ListParams{Page: max(f.page, 1), PerPage: hygienePerPage, LocationID: f.location,
		Ratings: f.ratings(), Tag: f.tag}
	lp.From, lp.To = dayRange(f.from, f.to)
	return lp
}

// exportHref is the download link of the filtered list in format.
func (p *hygienePage) exportHref(format string) string {
	return exportHref("/api/v1/hygiene/export", p.filter.params(), format, p.Workspace.Slug)
}

// load reads the locations once and the page of the filter; the list on
// screen stays until the answer replaces it.
func (p *hygienePage) load() {
	if p.loading {
		return
	}
	p.loading = true
	lp, needCatalog := p.filter.params(), !p.cat.loaded
	p.async(func(c context.Context) func(app.Context) {
		var cat catalog
		var err error
		if needCatalog {
			cat, err = readCatalog(c, p.api)
		}
		var page *feedback.Page[feedback.HygieneSubmission]
		if err == nil {
			page, err = p.api.Hygiene(c, lp)
			err = explain(err)
		}
		return func(ctx app.Context) {
			p.loading = false
			switch {
			case p.Shell.gone(err):
			case err != nil:
				p.problem = "The hygiene reports could not be loaded: " + err.Error()
			default:
				if needCatalog {
					p.cat = cat
				}
				p.list, p.problem = page, ""
			}
		}
	})
}

// refilter applies a changed filter from its first page.
func (p *hygienePage) refilter(change func(f *hygieneFilter)) {
	change(&p.filter)
	p.filter.page = 1
	p.load()
}

// turn shows page n of the filtered list.
func (p *hygienePage) turn(ctx app.Context, n int) {
	p.filter.page = n
	p.load()
	focusLater(ctx, "hygiene-status")
}
