package dashboard

import (
	"sort"
	"time"

	"github.com/feedbackhq/feedback/shared/feedback"
)

// today counts the feedback of the browser's local day per location: a
// summary read from the API (GET /summary), plus what arrived live since.
// A live item that arrives while the summary is being read, or just
// after (its event may trail its commit), may or may not be in the
// answer, so the summary is then read again.
type today struct {
	from, to time.Time // the day, [from, to)
	locs     map[string]*feedback.LocationSummary
	loaded   bool            // locs holds an answer
	reading  bool            // a read is under way
	stale    bool            // a live item arrived during the read
	answered time.Time       // when the last answer came
	counted  map[string]bool // the items counted since, by id
}

// settle is how long after an answer a live item may still be in it.
const settle = 2 * time.Second

// startDay sets the day of now, and reports whether it changed (the
// counts then need a new read).
func (t *today) startDay(from, to time.Time) bool {
	if t.from.Equal(from) && t.to.Equal(to) {
		return false
	}
	t.from, t.to, t.loaded, t.locs = from, to, false, nil
	return true
}

// read marks the start of a read.
func (t *today) read() { t.reading, t.stale = true, false }

// set takes the answer of a read (nil when it failed), and reports
// whether it must be read again.
func (t *today) set(s *feedback.Summary, now time.Time) (again bool) {
	t.reading = false
	if s == nil || !s.From.Equal(t.from) || !s.To.Equal(t.to) {
		return s != nil // an answer for another day: read today's
	}
	t.answered, t.counted = now, nil
	t.locs = make(map[string]*feedback.LocationSummary, len(s.Locations))
	for i := range s.Locations {
		t.locs[s.Locations[i].LocationID] = &s.Locations[i]
	}
	t.loaded = true
	return t.stale
}

// add counts an item that arrived live at now, if it is of the day and
// not counted yet, and reports whether the summary must be read again.
func (t *today) add(it *feedItem, now time.Time) (again bool) {
	if it.CreatedAt.Before(t.from) || !it.CreatedAt.Before(t.to) || t.counted[it.ID] {
		return false
	}
	if t.counted == nil {
		t.counted = map[string]bool{}
	}
	t.counted[it.ID] = true
	if t.reading {
		t.stale = true
	}
	if !t.loaded {
		return false
	}
	again = !t.reading && now.Sub(t.answered) < settle
	l := t.locs[it.LocationID]
	if l == nil {
		l = &feedback.LocationSummary{LocationID: it.LocationID}
		t.locs[it.LocationID] = l
	}
	switch it.Kind {
	case kindHygiene:
		l.Hygiene.Add(it.Rating)
	case kindReview:
		l.ReviewResponses.Add(it.Rating)
	case kindSurvey:
		l.SurveyResponses++
	}
	return again
}

// rows returns the locations' counts ordered by name (name returns a
// location's name).
func (t *today) rows(name func(id string) string) []feedback.LocationSummary {
	out := make([]feedback.LocationSummary, 0, len(t.locs))
	for _, l := range t.locs {
		out = append(out, *l)
	}
	sort.Slice(out, func(i, j int) bool {
		a, b := name(out[i].LocationID), name(out[j].LocationID)
		if a != b {
			return a < b
		}
		return out[i].LocationID < out[j].LocationID
	})
	return out
}

// localDay returns the local day of now: from its midnight to the next.
// (The wasm's time.Local is the browser's offset when the page loaded.)
func localDay(now time.Time) (from, to time.Time) {
	y, m, d := now.Local().Date()
	from = time.Date(y, m, d, 0, 0, 0, 0, time.Local)
	return from.UTC(), from.AddDate(0, 0, 1).UTC()
}

// localDate is the start of the day s (YYYY-MM-DD) in the browser's time
// zone, and whether s is a day.
func localDate(s string) (time.Time, bool) {
	t, err := time.ParseInLocation(time.DateOnly, s, time.Local)
	return t, err == nil
}

// dayRange is the list range of the days typed in a page's filter, both
// included: from the start of the first to the start of the day after
// the last, in the browser's time zone; nil where no day is typed.
func dayRange(first, last string) (from, to *time.Time) {
	if t, ok := localDate(first); ok {
		from = &t
	}
	if t, ok := localDate(last); ok {
		t = t.AddDate(0, 0, 1)
		to = &t
	}
	return from, to
}

// exportHref is the download link, in format, of the whole list at the
// API path (…/export) that lp filters: the workspace is named in the
// query, as a link cannot send the header.
func exportHref(path string, lp feedback.ListParams, format, slug string) string {
	v := lp.Values()
	v.Del(feedback.ParamPage)
	v.Del(feedback.ParamPerPage)
	v.Set("format", format)
	v.Set("workspace", slug)
	return path + "?" + v.Encode()
}
