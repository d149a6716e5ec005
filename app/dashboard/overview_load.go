package dashboard

import (
	"context"
	"time"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"github.com/feedbackhq/feedback/shared/feedback"
)

// The overview's REST reads. Each runs in a goroutine and its answer on
// the UI goroutine; an answer that says the session is gone signs the
// user out.

// forms is what the feed needs to know of the workspace: its locations
// and the titles of its forms, whose responses it reads.
type forms struct {
	locs    []feedback.Location
	reviews []feedback.Review
	surveys []feedback.Survey
}

// allOf reads up to one full page of a list: the overview names the
// locations and reads the responses of the first 200 forms.
var allOf = feedback.ListParams{Page: 1, PerPage: feedback.MaxPerPage}

// loadForms reads the locations and forms, then, once the view is
// wanted, the feed. A read started later wins.
func (p *overviewPage) loadForms() {
	p.gen++
	gen := p.gen
	p.loading, p.older, p.problem = true, false, ""
	p.async(func(c context.Context) func(app.Context) {
		f, err := p.readForms(c)
		return func(ctx app.Context) {
			if gen == p.gen {
				p.gotForms(f, err)
			}
		}
	})
}

func (p *overviewPage) readForms(c context.Context) (*forms, error) {
	locs, err := p.api.Locations(c, allOf)
	if err != nil {
		return nil, explain(err)
	}
	reviews, err := p.api.Reviews(c, allOf)
	if err != nil {
		return nil, explain(err)
	}
	surveys, err := p.api.Surveys(c, allOf)
	if err != nil {
		return nil, explain(err)
	}
	return &forms{locs: locs.Data, reviews: reviews.Data, surveys: surveys.Data}, nil
}

func (p *overviewPage) gotForms(f *forms, err error) {
	if p.failed(err) {
		p.loading = false
		return
	}
	p.locs, p.names, p.forms = f.locs, map[string]string{}, map[string]string{}
	for _, l := range f.locs {
		p.names[l.ID] = l.Name
	}
	p.sources = []source{{kind: kindHygiene, read: p.readHygiene}}
	for _, r := range f.reviews {
		p.forms[r.ID] = r.Title
		if r.Status != feedback.StatusDraft {
			p.sources = append(p.sources, source{kind: kindReview, formID: r.ID, read: p.readReview(r.ID)})
		}
	}
	for _, s := range f.surveys {
		p.forms[s.ID] = s.Title
		if s.Status != feedback.StatusDraft {
			p.sources = append(p.sources, source{kind: kindSurvey, formID: s.ID, read: p.readSurvey(s.ID)})
		}
	}
	if p.wanted {
		p.loadFeed()
	} else {
		p.loading = false
	}
}

// The sources' reads. Only the hygiene list filters by location; the
// overview filters the responses itself.

func (p *overviewPage) readHygiene(c context.Context, lp feedback.ListParams) ([]feedItem, *feedback.Cursor, error) {
	page, err := p.api.Hygiene(c, lp)
	return items(page, err, hygieneItem)
}

func (p *overviewPage) readReview(id string) readFunc {
	return func(c context.Context, lp feedback.ListParams) ([]feedItem, *feedback.Cursor, error) {
		lp.LocationID = ""
		page, err := p.api.ReviewResponses(c, id, lp)
		return items(page, err, reviewItem)
	}
}

func (p *overviewPage) readSurvey(id string) readFunc {
	return func(c context.Context, lp feedback.ListParams) ([]feedItem, *feedback.Cursor, error) {
		lp.LocationID = ""
		page, err := p.api.SurveyResponses(c, id, lp)
		return items(page, err, surveyItem)
	}
}

// readFunc is a source's read.
type readFunc = func(context.Context, feedback.ListParams) ([]feedItem, *feedback.Cursor, error)

// items turns a page of a list into feed items and the next position.
func items[T any](page *feedback.Page[T], err error, item func(*T) feedItem) ([]feedItem, *feedback.Cursor, error) {
	if err != nil {
		return nil, nil, explain(err)
	}
	out := make([]feedItem, len(page.Data))
	for i := range page.Data {
		out[i] = item(&page.Data[i])
	}
	if len(out) == 0 {
		return out, nil, nil
	}
	return out, nextOf(page.Meta, &out[len(out)-1]), nil
}

// chosen returns the sources of the filter's kind.
func (p *overviewPage) chosen() []source {
	var out []source
	for _, s := range p.sources {
		if p.filter.kind == "" || s.kind == p.filter.kind {
			out = append(out, s)
		}
	}
	return out
}

// loadFeed reads the first page of the feed. Items that arrive live
// meanwhile stay: the answer may have been read before they were stored.
func (p *overviewPage) loadFeed() {
	p.gen++
	gen, sources, f := p.gen, p.chosen(), p.filter
	p.loading, p.older, p.problem, p.readStarted = true, false, "", time.Now()
	p.async(func(c context.Context) func(app.Context) {
		pages, err := readAll(c, sources, nil, pageSize, f.location)
		return func(ctx app.Context) {
			if gen == p.gen {
				p.gotFeed(pages, err)
			}
		}
	})
}

func (p *overviewPage) gotFeed(pages []sourcePage, err error) {
	p.loading = false
	if p.failed(err) {
		return
	}
	items, next := merge(pages, p.filter.keep)
	var arrived []feedItem
	for _, it := range p.feed.items {
		if !it.Arrived.IsZero() && !it.Arrived.Before(p.readStarted) {
			arrived = append(arrived, it)
		}
	}
	p.feed.reset(next)
	p.feed.limit = defaultFeedLimit
	for _, it := range items {
		p.feed.add(it)
	}
	for _, it := range arrived {
		p.feed.add(it)
	}
	p.loadedOnce = true
}

// loadOlder reads the next older page of the feed.
func (p *overviewPage) loadOlder() {
	if p.older || p.loading || p.feed.older == nil {
		return
	}
	gen, sources, f, after := p.gen, p.chosen(), p.filter, *p.feed.older
	p.older, p.problem = true, ""
	p.async(func(c context.Context) func(app.Context) {
		pages, err := readAll(c, sources, &after, pageSize, f.location)
		return func(ctx app.Context) {
			if gen == p.gen {
				p.gotOlder(ctx, pages, err)
			}
		}
	})
}

func (p *overviewPage) gotOlder(ctx app.Context, pages []sourcePage, err error) {
	p.older = false
	if p.failed(err) {
		return
	}
	items, next := merge(pages, p.filter.keep)
	p.feed.older = next
	p.feed.limit = min(maxFeedLimit, max(p.feed.limit, p.feed.len()+len(items)))
	first := p.feed.len()
	for _, it := range items {
		p.feed.add(it)
	}
	if p.feed.len() > first {
		focusLater(ctx, itemID(p.feed.items[first].ID)) // the first item read, so the keyboard goes on from there
	}
}

// loadToday reads today's counts per location.
func (p *overviewPage) loadToday() {
	if p.today.reading {
		return
	}
	p.today.read()
	from, to := p.today.from, p.today.to
	p.async(func(c context.Context) func(app.Context) {
		s, err := p.api.Summary(c, from, to)
		return func(ctx app.Context) {
			err = explain(err)
			if p.failed(err) {
				p.today.set(nil, time.Now())
				return
			}
			if p.today.set(s, time.Now()) {
				p.loadTodaySoon()
			}
		}
	})
}

// loadTodaySoon reads today's counts again in a moment, once for every
// item that arrived meanwhile.
func (p *overviewPage) loadTodaySoon() {
	if p.todaySoon {
		return
	}
	p.todaySoon = true
	p.ui.After(settle, func(app.Context) {
		p.todaySoon = false
		p.loadToday()
	})
}

// loadKiosks reads the kiosks.
func (p *overviewPage) loadKiosks() {
	if p.kiosks.reading {
		p.kiosks.again = true
		return
	}
	p.kiosks.reading, p.kiosks.again = true, false
	p.async(func(c context.Context) func(app.Context) {
		page, err := p.api.Kiosks(c, allOf)
		return func(ctx app.Context) {
			p.kiosks.reading = false
			if err = explain(err); p.failed(err) {
				return
			}
			p.kiosks.set(page.Data)
			if p.kiosks.again {
				p.loadKiosks()
			}
		}
	})
}

// failed handles a read's error and reports whether there was one: a
// session that is gone signs the user out; anything else is shown with
// a way to read again.
func (p *overviewPage) failed(err error) bool {
	return p.Shell.refused(err, "The overview could not be loaded: ", func(msg string) { p.problem = msg })
}
