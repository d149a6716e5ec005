package feedback_test

import (
	"net/url"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/feedbackhq/feedback/shared/feedback"
)

func TestParseListParams(t *testing.T) {
	day := time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC)
	later := time.Date(2026, 11, 21, 7, 47, 29, 507000000, time.UTC)
	tests := []struct {
		name    string
		query   string
		want    feedback.ListParams
		invalid []string // names in invalid_params, in any order
	}{
		{name: "defaults", query: "", want: feedback.ListParams{Page: 1, PerPage: 50}},
		{name: "paging", query: "page=3&per_page=200", want: feedback.ListParams{Page: 3, PerPage: 200}},
		{name: "date and date-time", query: "from=2026-11-01&to=2026-11-21T08:47:29.507%2B01:00",
			want: feedback.ListParams{Page: 1, PerPage: 50, From: &day, To: &later}},
		{name: "location", query: "location_id=0193A5B2-7C3D-7E4F-8A1B-2C3D4E5F6A7B",
			want: feedback.ListParams{Page: 1, PerPage: 50, LocationID: "0193a5b2-7c3d-7e4f-8a1b-2c3d4e5f6a7b"}},
		{name: "ratings", query: "rating=2,1,2", want: feedback.ListParams{Page: 1, PerPage: 50, Ratings: []int{1, 2}}},
		{name: "one rating", query: "rating=5", want: feedback.ListParams{Page: 1, PerPage: 50, Ratings: []int{5}}},
		{name: "tag", query: "tag=no_soap", want: feedback.ListParams{Page: 1, PerPage: 50, Tag: "no_soap"}},
		{name: "rating out of range", query: "rating=1,6", invalid: []string{"rating"}},
		{name: "rating empty", query: "rating=", invalid: []string{"rating"}},
		{name: "rating trailing comma", query: "rating=1,", invalid: []string{"rating"}},
		{name: "unknown tag", query: "tag=sticky", invalid: []string{"tag"}},
		{name: "page zero", query: "page=0", invalid: []string{"page"}},
		{name: "per_page too big", query: "per_page=201", invalid: []string{"per_page"}},
		{name: "per_page zero", query: "per_page=0", invalid: []string{"per_page"}},
		{name: "page not a number", query: "page=abc", invalid: []string{"page"}},
		{name: "page huge", query: "page=99999999999999999999", invalid: []string{"page"}},
		{name: "bad from", query: "from=yesterday", invalid: []string{"from"}},
		{name: "date-time without offset", query: "from=2026-11-01T00:00:00", invalid: []string{"from"}},
		{name: "from after to", query: "from=2026-11-02&to=2026-11-01", invalid: []string{"from"}},
		{name: "bad location", query: "location_id=42", invalid: []string{"location_id"}},
		{name: "empty location", query: "location_id=", invalid: []string{"location_id"}},
		{name: "unknown parameter", query: "sort=asc", invalid: []string{"sort"}},
		{name: "repeated parameter", query: "page=1&page=2", invalid: []string{"page"}},
		{name: "several at once", query: "page=-1&per_page=x", invalid: []string{"page", "per_page"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			q, _ := url.ParseQuery(tt.query)
			got, err := feedback.ParseListParams(q, feedback.ParamFrom, feedback.ParamTo, feedback.ParamLocationID,
				feedback.ParamRating, feedback.ParamTag)
			if tt.invalid == nil {
				if err != nil {
					t.Fatalf("ParseListParams(%q) error: %v", tt.query, err)
				}
				if diff := cmp.Diff(tt.want, got); diff != "" {
					t.Errorf("ParseListParams(%q) mismatch (-want +got):\n%s", tt.query, diff)
				}
				again, err := feedback.ParseListParams(got.Values(), feedback.ParamFrom, feedback.ParamTo,
					feedback.ParamLocationID, feedback.ParamRating, feedback.ParamTag)
				if diff := cmp.Diff(got, again, cmpTimes); err != nil || diff != "" {
					t.Errorf("ParseListParams(Values()) = %v (-first +again):\n%s", err, diff)
				}
				return
			}
			if code := feedback.ErrorCode(err); code != feedback.EInvalidParameter {
				t.Fatalf("ParseListParams(%q) code = %q; want invalid_parameter", tt.query, code)
			}
			var names []string
			for _, p := range feedback.ErrorParams(err) {
				names = append(names, p.Name)
			}
			if diff := cmp.Diff(tt.invalid, names, sortStrings); diff != "" {
				t.Errorf("invalid params mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

// cmpTimes compares times by instant, whatever their location.
var cmpTimes = cmp.Comparer(func(a, b time.Time) bool { return a.Equal(b) })

var sortStrings = cmp.Transformer("sort", func(in []string) []string {
	out := append([]string(nil), in...)
	for i := range out {
		for j := i + 1; j < len(out); j++ {
			if out[j] < out[i] {
				out[i], out[j] = out[j], out[i]
			}
		}
	}
	return out
})

func TestParseListParamsNotAllowed(t *testing.T) {
	q, _ := url.ParseQuery("from=2026-11-01")
	if _, err := feedback.ParseListParams(q); feedback.ErrorCode(err) != feedback.EInvalidParameter {
		t.Errorf("from on an endpoint without it: err = %v; want invalid_parameter", err)
	}
}

func TestNewPage(t *testing.T) {
	p := feedback.ListParams{Page: 2, PerPage: 50}
	tests := []struct {
		total, pages int
	}{{0, 0}, {1, 1}, {50, 1}, {51, 2}, {1000, 20}}
	for _, tt := range tests {
		got := feedback.NewPage[int](nil, tt.total, p)
		if got.Meta.Pages != tt.pages || got.Data == nil || got.Meta.Total != tt.total || got.Meta.Page != 2 || got.Meta.PerPage != 50 {
			t.Errorf("NewPage(total %d) = %+v; want pages %d and an empty, non-nil data", tt.total, got, tt.pages)
		}
	}
}

func FuzzParseListParams(f *testing.F) {
	for _, s := range []string{"", "page=2&per_page=10", "from=2026-01-01&to=2026-02-01T00:00:00Z", "location_id=x", "page=%zz", "per_page=-0"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, raw string) {
		q, err := url.ParseQuery(raw)
		if err != nil {
			return
		}
		p, err := feedback.ParseListParams(q, feedback.ParamFrom, feedback.ParamTo, feedback.ParamLocationID)
		if err != nil {
			if feedback.ErrorCode(err) != feedback.EInvalidParameter || len(feedback.ErrorParams(err)) == 0 {
				t.Fatalf("error without code or params: %v", err)
			}
			return
		}
		if p.Page < 1 || p.Page > feedback.MaxPage || p.PerPage < 1 || p.PerPage > feedback.MaxPerPage {
			t.Fatalf("accepted out-of-range paging %+v from %q", p, raw)
		}
		if p.From != nil && p.To != nil && p.From.After(*p.To) {
			t.Fatalf("accepted from after to from %q", raw)
		}
		if p.Offset() < 0 {
			t.Fatalf("negative offset from %q", raw)
		}
	})
}
