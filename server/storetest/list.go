package storetest

import (
	"fmt"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/feedbackhq/feedback/shared/feedback"
)

// lister adapts one list method to the shared paging tests.
type lister struct {
	name   string
	create func(f *fixture, w world) string // a record created at the clock's now; its id
	list   func(f *fixture, w world, p feedback.ListParams) ([]string, int, error)
}

var listers = []lister{
	{"Locations", func(f *fixture, w world) string { return f.location(w.ws).ID },
		func(f *fixture, w world, p feedback.ListParams) ([]string, int, error) {
			return ids(f.s.Locations(f.ctx(), w.ws, p))
		}},
	{"Posters", func(f *fixture, w world) string {
		return f.poster(w.ws, w.location, feedback.FormRef{Form: feedback.FormHygiene}).ID
	}, func(f *fixture, w world, p feedback.ListParams) ([]string, int, error) {
		return ids(f.s.Posters(f.ctx(), w.ws, w.location, p))
	}},
	{"Reviews", func(f *fixture, w world) string { return f.review(w.ws, feedback.StatusDraft).ID },
		func(f *fixture, w world, p feedback.ListParams) ([]string, int, error) {
			return ids(f.s.Reviews(f.ctx(), w.ws, p))
		}},
	{"Surveys", func(f *fixture, w world) string { return f.survey(w.ws, feedback.StatusDraft).ID },
		func(f *fixture, w world, p feedback.ListParams) ([]string, int, error) {
			return ids(f.s.Surveys(f.ctx(), w.ws, p))
		}},
	{"Webhooks", func(f *fixture, w world) string { return f.webhook(w.ws).ID },
		func(f *fixture, w world, p feedback.ListParams) ([]string, int, error) {
			return ids(f.s.Webhooks(f.ctx(), w.ws, p))
		}},
	{"Kiosks", func(f *fixture, w world) string {
		return f.pair(w.ws, w.location, feedback.FormRef{Form: feedback.FormHygiene}, feedback.NewID()).ID
	}, func(f *fixture, w world, p feedback.ListParams) ([]string, int, error) {
		return ids(f.s.Kiosks(f.ctx(), w.ws, p))
	}},
	submissionLister("HygieneSubmissions", hygieneKind),
	submissionLister("ReviewResponses", reviewResponseKind),
	submissionLister("SurveyResponses", surveyResponseKind),
}

func submissionLister(name string, k kind) lister {
	return lister{name, func(f *fixture, w world) string {
		rec, _, err := k.add(f, w, feedback.NewID(), 3, []byte("h"))
		f.must(err)
		return recordID(rec)
	}, func(f *fixture, w world, p feedback.ListParams) ([]string, int, error) {
		return ids(k.list(f, w, p))
	}}
}

// ids returns the ids of a page of records.
func ids[T any](items []T, total int, err error) ([]string, int, error) {
	out := []string{}
	for _, it := range items {
		out = append(out, recordID(it))
	}
	return out, total, err
}

// recordID returns the ID field of a record.
func recordID(v any) string { return reflect.ValueOf(v).FieldByName("ID").String() }

func testList(t *testing.T, h harness) {
	for _, l := range listers {
		h.run(t, l.name+"/Pages", func(t *testing.T, f *fixture) { testPages(t, f, l) })
	}
	for _, l := range listers[len(listers)-3:] {
		h.run(t, l.name+"/FromTo", func(t *testing.T, f *fixture) { testFromTo(t, f, l) })
	}
	h.run(t, "HygieneSubmissions/Location", testLocationFilter)
	h.run(t, "HygieneSubmissions/RatingTag", testHygieneFilter)
}

// testPages creates records with ties on created_at and reads them back
// in every page size that matters.
func testPages(t *testing.T, f *fixture, l lister) {
	w := f.world("acme")
	before, _, err := l.list(f, w, feedback.ListParams{Page: 1, PerPage: feedback.MaxPerPage})
	f.must(err)
	type rec struct {
		at time.Time
		id string
	}
	var created []rec
	for _, step := range []time.Duration{time.Second, time.Second, 0, 0, time.Second} {
		f.clock.Add(step)
		created = append(created, rec{f.clock.stored(), l.create(f, w)})
	}
	slices.SortFunc(created, func(a, b rec) int { // newest first, ties by id descending
		if c := b.at.Compare(a.at); c != 0 {
			return c
		}
		return strings.Compare(b.id, a.id)
	})
	var want []string
	for _, r := range created {
		want = append(want, r.id)
	}
	want = append(want, before...)
	n := len(want)
	for _, per := range []int{1, 2, 3, feedback.MaxPerPage} {
		for page := 1; page <= (n+per-1)/per+1; page++ {
			got, total, err := l.list(f, w, feedback.ListParams{Page: page, PerPage: per})
			f.must(err)
			lo, hi := min((page-1)*per, n), min(page*per, n)
			wantEqual(t, fmt.Sprintf("page %d of %d per page", page, per), want[lo:hi], got)
			if total != n {
				t.Errorf("page %d of %d per page: total %d, want %d", page, per, total, n)
			}
		}
	}
	got, _, err := l.list(f, w, feedback.ListParams{})
	f.must(err)
	wantEqual(t, "zero ListParams (the defaults)", want, got)
}

// testFromTo checks that from is inclusive and to exclusive.
func testFromTo(t *testing.T, f *fixture, l lister) {
	w := f.world("acme")
	var at []time.Time
	var id []string
	for range 3 {
		f.clock.Add(time.Second)
		at = append(at, f.clock.stored())
		id = append(id, l.create(f, w))
	}
	cet := time.FixedZone("CET", 3600)
	tests := []struct {
		name     string
		from, to *time.Time
		want     []string
	}{
		{"no bounds", nil, nil, []string{id[2], id[1], id[0]}},
		{"from is inclusive", &at[1], nil, []string{id[2], id[1]}},
		{"from just after", ptr(at[1].Add(time.Microsecond)), nil, []string{id[2]}},
		{"to is exclusive", nil, &at[1], []string{id[0]}},
		{"to just after", nil, ptr(at[1].Add(time.Microsecond)), []string{id[1], id[0]}},
		{"from and to", &at[0], &at[2], []string{id[1], id[0]}},
		{"from equals to", &at[1], &at[1], []string{}},
		{"in another zone", ptr(at[1].In(cet)), ptr(at[2].In(cet)), []string{id[1]}},
		{"before everything", nil, ptr(at[0].Add(-time.Hour)), []string{}},
	}
	for _, tt := range tests {
		got, total, err := l.list(f, w, feedback.ListParams{Page: 1, PerPage: 10, From: tt.from, To: tt.to})
		f.must(err)
		wantEqual(t, tt.name, tt.want, got)
		if total != len(tt.want) {
			t.Errorf("%s: total %d, want %d", tt.name, total, len(tt.want))
		}
	}
}

func testLocationFilter(t *testing.T, f *fixture) {
	w := f.world("acme")
	other := w
	other.location = f.location(w.ws).ID
	a1 := f.hygiene(w.ws, w.location).ID
	f.clock.Add(time.Second)
	b1 := f.hygiene(w.ws, other.location).ID
	f.clock.Add(time.Second)
	a2 := f.hygiene(w.ws, w.location).ID
	tests := []struct {
		name     string
		location string
		from     *time.Time
		want     []string
	}{
		{"all", "", nil, []string{a2, b1, a1}},
		{"first location", w.location, nil, []string{a2, a1}},
		{"second location", other.location, nil, []string{b1}},
		{"with from", w.location, ptr(f.clock.stored()), []string{a2}},
		{"unknown location", feedback.NewID(), nil, []string{}},
		{"malformed location", "nope", nil, []string{}},
	}
	for _, tt := range tests {
		got, total, err := ids(f.s.HygieneSubmissions(f.ctx(), w.ws, feedback.ListParams{Page: 1, PerPage: 10,
			LocationID: tt.location, From: tt.from}))
		f.must(err)
		wantEqual(t, tt.name, tt.want, got)
		if total != len(tt.want) {
			t.Errorf("%s: total %d, want %d", tt.name, total, len(tt.want))
		}
	}
}

func ptr[T any](v T) *T { return &v }
