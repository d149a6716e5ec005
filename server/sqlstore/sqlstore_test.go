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

func TestCountQuery(t *testing.T) {
	h := time.Date(2026, 3, 27, 10, 0, 0, 0, time.UTC)
	counted := listQuery{table: "t", counter: &counter{"t", wholeWorkspace}}
	tests := []struct {
		name     string
		q        listQuery
		from, to time.Time
		wantSum  bool
	}{
		{"no counter", listQuery{table: "t"}, minTime, maxTime, false},
		{"no bounds", counted, minTime, maxTime, true},
		{"exactly one hour", counted, h, h.Add(time.Hour), true},
		{"a microsecond short of an hour", counted, h.Add(time.Microsecond), h.Add(time.Hour), false},
		{"inside one hour", counted, h.Add(time.Minute), h.Add(59 * time.Minute), false},
		{"across one boundary", counted, h.Add(30 * time.Minute), h.Add(90 * time.Minute), false},
		{"from equals to", counted, h, h, false},
		{"to before from", counted, h.Add(5 * time.Hour), h, false},
		{"two hours with edges", counted, h.Add(-time.Microsecond), h.Add(2*time.Hour + time.Microsecond), true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			base := []any{"ws", tt.from, tt.to}
			query, args, _ := tt.q.countQuery(base, tt.from, tt.to, 0)
			if got := strings.Contains(query, "list_counts"); got != tt.wantSum {
				t.Errorf("sums counters: %v, want %v, in %s", got, tt.wantSum, query)
			}
			for i := range args {
				if !strings.Contains(query, fmt.Sprintf("$%d", i+1)) {
					t.Errorf("argument $%d is unused in %s", i+1, query)
				}
			}
		})
	}
}
