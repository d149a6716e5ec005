package storetest

import (
	"fmt"
	"testing"
	"time"

	"github.com/feedbackhq/feedback/shared/feedback"
)

// testHygieneFilter checks the rating and tag filters of the hygiene
// list and export: alone, together, with a location, across hours, deep
// pages and the cursor, with totals counted row by row.
func testHygieneFilter(t *testing.T, f *fixture) {
	w := f.world("acme")
	other := f.location(w.ws).ID
	type sub struct {
		rating int
		tags   []string
		loc    string
	}
	subs := []sub{
		{1, []string{feedback.TagNoSoap, feedback.TagBadSmell}, w.location},
		{2, nil, other},
		{5, []string{feedback.TagNoSoap}, w.location},
		{1, []string{feedback.TagDirtyFloor}, other},
		{2, []string{feedback.TagBadSmell}, w.location},
		{4, []string{feedback.TagNoPaper}, w.location},
	}
	var id []string // newest first, as the list answers
	for _, s := range subs {
		f.clock.Add(40 * time.Minute) // the rows span several hours
		h := &feedback.HygieneSubmission{ID: feedback.NewID(), Rating: s.rating, LocationID: s.loc, Tags: s.tags,
			Language: "en", Source: feedback.SourceQR, CapturedAt: feedback.NewTime(f.clock.Now())}
		_, err := f.s.AddHygiene(f.ctx(), w.ws, h, []byte(h.ID))
		f.must(err)
		id = append([]string{h.ID}, id...)
	}
	tests := []struct {
		name string
		p    feedback.ListParams
		want []string
	}{
		{"low ratings", feedback.ListParams{Ratings: []int{1, 2}}, []string{id[1], id[2], id[4], id[5]}},
		{"one rating", feedback.ListParams{Ratings: []int{5}}, []string{id[3]}},
		{"no match", feedback.ListParams{Ratings: []int{3}}, []string{}},
		{"tag", feedback.ListParams{Tag: feedback.TagNoSoap}, []string{id[3], id[5]}},
		{"tag and ratings", feedback.ListParams{Tag: feedback.TagBadSmell, Ratings: []int{1}}, []string{id[5]}},
		{"ratings at a location", feedback.ListParams{Ratings: []int{1, 2}, LocationID: other}, []string{id[2], id[4]}},
		{"tag at a location", feedback.ListParams{Tag: feedback.TagBadSmell, LocationID: w.location}, []string{id[1], id[5]}},
		{"tag nobody chose", feedback.ListParams{Tag: feedback.TagOutOfOrder}, []string{}},
	}
	for _, tt := range tests {
		checkFiltered(t, f, w.ws, tt.name, tt.p, tt.want)
	}
}

// checkFiltered reads p's list one row a page, by page number and by
// cursor, and its export, and compares each with want.
func checkFiltered(t *testing.T, f *fixture, ws, name string, p feedback.ListParams, want []string) {
	t.Helper()
	p.PerPage = 1
	var byPage, byCursor []string
	for n := 1; n <= len(want)+1; n++ {
		p.Page, p.After = n, nil
		got, total, err := ids(f.s.HygieneSubmissions(f.ctx(), ws, p))
		f.must(err)
		byPage = append(byPage, got...)
		if total != len(want) {
			t.Errorf("%s, page %d: total %d, want %d", name, n, total, len(want))
		}
	}
	p.Page = 1
	for range len(want) + 1 {
		page, _, err := f.s.HygieneSubmissions(f.ctx(), ws, p)
		f.must(err)
		if len(page) == 0 {
			break
		}
		byCursor = append(byCursor, page[0].ID)
		c := page[0].Key()
		p.After = &c
	}
	p.After = nil
	exported := []string{}
	f.must(f.s.EachHygiene(f.ctx(), ws, p, func(batch []feedback.HygieneSubmission) error {
		for _, h := range batch {
			exported = append(exported, h.ID)
		}
		return nil
	}))
	for what, got := range map[string][]string{"pages": byPage, "cursor": byCursor, "export": exported} {
		if got == nil {
			got = []string{}
		}
		wantEqual(t, fmt.Sprintf("%s by %s", name, what), want, got)
	}
}
