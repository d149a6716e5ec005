package sqlstore

import (
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/feedbackhq/feedback/shared/feedback"
)

func TestMark(t *testing.T) {
	cause := errors.New("duplicate key value violates unique constraint")
	err := fmt.Errorf("insert: %w", Mark(ErrUnique, cause))
	if !errors.Is(err, ErrUnique) || !errors.Is(err, cause) {
		t.Errorf("errors.Is(%v, ErrUnique / the cause) = false, want true for both", err)
	}
	if errors.Is(err, ErrNoRows) || errors.Is(err, ErrForeignKey) {
		t.Errorf("%v matches a kind it was not marked with", err)
	}
	if got := Mark(ErrUnique, cause).Error(); got != cause.Error() {
		t.Errorf("Error() = %q, want the cause's %q", got, cause.Error())
	}
	if Mark(ErrUnique, nil) != nil {
		t.Error("Mark(kind, nil) != nil")
	}
}

func TestWrap(t *testing.T) {
	tests := []struct {
		name string
		err  error
		want string
	}{
		{"nil stays nil", nil, ""},
		{"internal errors get the operation", errors.New("boom"), "sqlstore: Location(ws): boom"},
		{"client errors stay as they are", feedback.Errorf(feedback.ENotFound, "No."), "not_found: No."},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := tt.err
			wrap(&err, "Location(%s)", "ws")
			got := ""
			if err != nil {
				got = err.Error()
			}
			if got != tt.want {
				t.Errorf("got %q, want %q", got, tt.want)
			}
			if tt.err != nil && !errors.Is(err, tt.err) {
				t.Errorf("the wrapped error does not match its cause")
			}
		})
	}
}

func TestPageBounds(t *testing.T) {
	tests := []struct {
		name                  string
		p                     feedback.ListParams
		wantLimit, wantOffset int
	}{
		{"first page", feedback.ListParams{Page: 1, PerPage: 20}, 20, 0},
		{"third page", feedback.ListParams{Page: 3, PerPage: 20}, 20, 40},
		{"zero value: the defaults", feedback.ListParams{}, feedback.DefaultPerPage, 0},
		{"too many per page", feedback.ListParams{Page: 2, PerPage: feedback.MaxPerPage + 1}, feedback.DefaultPerPage, feedback.DefaultPerPage},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			limit, offset := pageBounds(tt.p)
			if limit != tt.wantLimit || offset != tt.wantOffset {
				t.Errorf("pageBounds(%+v) = %d, %d; want %d, %d", tt.p, limit, offset, tt.wantLimit, tt.wantOffset)
			}
		})
	}
}

func TestOpenQuery(t *testing.T) {
	h := time.Date(2026, 3, 27, 10, 0, 0, 0, time.UTC)
	counted := listQuery{table: "t", where: " AND location_id = $4", counter: &counter{"t", wholeWorkspace}}
	tests := []struct {
		name               string
		from, to, closed   time.Time
		wantParts          int
		wantSum, wantEdges bool
	}{
		{"no bounds, all closed", minTime, maxTime, maxTime, 0, false, false},
		{"no bounds, hours open", minTime, maxTime, h, 1, true, false},
		{"two hours with edges, closed", h.Add(-time.Microsecond), h.Add(2*time.Hour + time.Microsecond), maxTime, 2, false, true},
		{"two hours with edges, open", h.Add(-time.Microsecond), h.Add(2*time.Hour + time.Microsecond), h, 3, true, true},
		{"only a top edge", h, h.Add(2*time.Hour + time.Microsecond), maxTime, 1, false, true},
		{"only a bottom edge", h.Add(-time.Microsecond), h.Add(2 * time.Hour), minTime, 2, true, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			sp := span{first: ceilHour(tt.from), last: tt.to.Truncate(time.Hour), closedEnd: tt.closed}
			query, args := counted.openQuery([]any{"ws", tt.from, tt.to, "loc"}, tt.from, tt.to, &sp)
			if got := strings.Count(query, "SELECT"); got != tt.wantParts {
				t.Errorf("%d parts, want %d, in %s", got, tt.wantParts, query)
			}
			if got := strings.Contains(query, "list_counts"); got != tt.wantSum {
				t.Errorf("sums counters: %v, want %v, in %s", got, tt.wantSum, query)
			}
			if got := strings.Contains(query, "location_id"); got != tt.wantEdges {
				t.Errorf("counts edges: %v, want %v, in %s", got, tt.wantEdges, query)
			}
			for i := range args {
				if query != "" && !strings.Contains(query, fmt.Sprintf("$%d", i+1)) {
					t.Errorf("argument $%d is unused in %s", i+1, query)
				}
			}
		})
	}
}

func TestSpanSeek(t *testing.T) {
	h := time.Date(2026, 3, 27, 10, 0, 0, 0, time.UTC)
	hc := func(d time.Duration, n uint32) hourCount { return hourCount{hour: int32(epochHour(h.Add(d))), n: n} }
	sp := span{first: h.Add(-3 * time.Hour), last: h.Add(2 * time.Hour), closedEnd: h, top: 2, bottom: 4,
		open:   []hourCount{hc(time.Hour, 3), hc(0, 0)},
		closed: []hourCount{hc(-time.Hour, 5), hc(-3*time.Hour, 1), hc(-4*time.Hour, 7)}}
	tests := []struct {
		offset    int
		wantUpper time.Time
		wantSkip  int
	}{
		{0, time.Time{}, 0},
		{1, time.Time{}, 0},
		{2, h.Add(2 * time.Hour), 2},
		{4, h.Add(2 * time.Hour), 2},
		{5, h, 5},
		{9, h, 5},
		{10, h.Add(-2 * time.Hour), 10},
		{11, h.Add(-3 * time.Hour), 11},
		{14, h.Add(-3 * time.Hour), 11},
	}
	for _, tt := range tests {
		total, at := sp.seek(tt.offset)
		if total != 15 || !at.upper.Equal(tt.wantUpper) || at.skip != tt.wantSkip {
			t.Errorf("seek(%d) = %d, %v, %d; want 15, %v, %d", tt.offset, total, at.upper, at.skip, tt.wantUpper, tt.wantSkip)
		}
	}
}
