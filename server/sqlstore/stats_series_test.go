package sqlstore

import (
	"testing"
	"time"

	"github.com/feedbackhq/feedback/shared/feedback"
)

// TestBucketerHalfHourZone: in Asia/Kolkata (UTC+5:30) an hour that
// straddles local midnight counts in the day and week it starts in, and
// the heatmap puts it at the local hour of its first instant.
func TestBucketerHalfHourZone(t *testing.T) {
	loc, err := time.LoadLocation("Asia/Kolkata")
	if err != nil {
		t.Fatal(err)
	}
	sunday := time.Date(2026, 11, 22, 18, 0, 0, 0, time.UTC) // Sunday 23:30 to Monday 00:30 IST
	monday := sunday.Add(time.Hour)                          // Monday 00:30 IST
	for _, tc := range []struct {
		bucket string
		hour   time.Time
		want   time.Time
	}{
		{feedback.BucketDay, sunday, time.Date(2026, 11, 22, 0, 0, 0, 0, loc)},
		{feedback.BucketDay, monday, time.Date(2026, 11, 23, 0, 0, 0, 0, loc)},
		{feedback.BucketWeek, sunday, time.Date(2026, 11, 16, 0, 0, 0, 0, loc)},
		{feedback.BucketWeek, monday, time.Date(2026, 11, 23, 0, 0, 0, 0, loc)},
		{feedback.BucketHour, sunday, sunday},
	} {
		if got := (bucketer{tc.bucket, loc}).start(tc.hour); !got.Equal(tc.want) {
			t.Errorf("%s of %v: %v, want %v", tc.bucket, tc.hour, got, tc.want)
		}
	}
	h := hourTally{hour: sunday}
	h.n[0] = 1
	m := bucketer{feedback.BucketDay, loc}.heatmap([]hourTally{h})
	if m[6][23] != (feedback.HeatCell{Count: 1, RatingSum: 1, Low: 1}) {
		t.Errorf("Sunday 23:00 IST: %+v", m[6][23])
	}
}

// TestNPS: promoters (9, 10) minus detractors (0 to 6) in percent of all
// scores, rounded half away from zero; none without scores.
func TestNPS(t *testing.T) {
	dist := func(scores map[int]int) []int {
		d := make([]int, 11)
		for s, n := range scores {
			d[s] = n
		}
		return d
	}
	for _, tc := range []struct {
		scores map[int]int
		want   int
	}{
		{map[int]int{10: 1, 9: 1, 8: 1, 6: 1}, 25},
		{map[int]int{0: 3}, -100},
		{map[int]int{7: 2, 8: 5}, 0},
		{map[int]int{9: 1, 7: 1, 5: 1, 8: 5}, 0},
		{map[int]int{10: 2, 1: 1}, 33},
		{map[int]int{10: 1, 1: 2}, -33},
		{map[int]int{10: 1, 8: 7}, 13}, // 12.5 rounds away from zero
	} {
		if got := nps(dist(tc.scores)); got == nil || *got != tc.want {
			t.Errorf("nps(%v) = %v, want %d", tc.scores, got, tc.want)
		}
	}
	if got := nps(make([]int, 11)); got != nil {
		t.Errorf("nps of no scores = %d, want nil", *got)
	}
}
