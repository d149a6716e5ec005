package sqlstore

import (
	"math"
	"time"

	"github.com/feedbackhq/feedback/shared/feedback"
)

// tagSlots is the room of a tally for hygiene tags: at least
// len(feedback.HygieneTags) (tagColumns panics otherwise). A fixed array
// keeps a tally a value: scanning a year copies it instead of allocating.
const tagSlots = 8

// tally is the sum of hourly statistics rows: ratings 1 to 5 and, for
// hygiene, each tag of feedback.HygieneTags.
type tally struct {
	n    [5]int
	tags [tagSlots]int
}

// add adds o to t.
func (t *tally) add(o tally) {
	for i := range t.n {
		t.n[i] += o.n[i]
	}
	for i := range t.tags {
		t.tags[i] += o.tags[i]
	}
}

// ratings returns t's ratings as the API reports them.
func (t tally) ratings() feedback.RatingStats {
	r := feedback.RatingStats{}
	sum := 0
	for i, n := range t.n {
		r.Distribution[i] = n
		r.Count += n
		sum += n * (i + 1)
	}
	if r.Count > 0 {
		r.Average = ptr(float64(sum) / float64(r.Count))
	}
	return r
}

// hygiene returns t as a hygiene bucket that starts at start (the zero
// time for a range's total).
func (t tally) hygiene(start time.Time) feedback.HygieneBucket {
	b := feedback.HygieneBucket{RatingStats: t.ratings(), Tags: make(map[string]int, len(feedback.HygieneTags))}
	if !start.IsZero() {
		b.Start = feedback.NewTime(start)
	}
	if b.Count > 0 {
		b.LowShare = ptr(float64(t.n[0]+t.n[1]) / float64(b.Count))
	}
	for i, tag := range feedback.HygieneTags {
		b.Tags[tag] = t.tags[i]
	}
	return b
}

func ptr[T any](v T) *T { return &v }

// hourTally is one UTC hour's tally.
type hourTally struct {
	hour time.Time
	tally
}

// bucketer maps UTC hours to the start of their bucket in a zone: an hour
// belongs to the local day or week of its first instant (in zones whose
// offset is not a whole number of hours, such as Asia/Kolkata, an hour
// that straddles midnight counts in the day it starts in). Weeks start
// on Monday.
type bucketer struct {
	bucket string
	loc    *time.Location
}

// start returns the first instant of the bucket of hour.
func (b bucketer) start(hour time.Time) time.Time {
	if b.bucket == feedback.BucketHour {
		return hour.UTC()
	}
	l := hour.In(b.loc)
	day := l.Day()
	if b.bucket == feedback.BucketWeek {
		day -= (int(l.Weekday()) + 6) % 7
	}
	return time.Date(l.Year(), l.Month(), day, 0, 0, 0, 0, b.loc)
}

// series folds hours (oldest first) into buckets and a total.
func (b bucketer) series(hours []hourTally) (total tally, buckets []hourTally) {
	for _, h := range hours {
		total.add(h.tally)
		start := b.start(h.hour)
		if n := len(buckets); n > 0 && buckets[n-1].hour.Equal(start) {
			buckets[n-1].add(h.tally)
			continue
		}
		buckets = append(buckets, hourTally{hour: start})
		buckets[len(buckets)-1].add(h.tally)
	}
	return total, buckets
}

// hygieneSeries returns hours as the total and buckets of the API.
func (b bucketer) hygieneSeries(hours []hourTally) (feedback.HygieneBucket, []feedback.HygieneBucket) {
	total, buckets := b.series(hours)
	out := make([]feedback.HygieneBucket, len(buckets))
	for i, h := range buckets {
		out[i] = h.hygiene(h.hour)
	}
	return total.hygiene(time.Time{}), out
}

// heatmap counts hours by local weekday (Monday first) and local hour of
// their first instant.
func (b bucketer) heatmap(hours []hourTally) (m [7][24]feedback.HeatCell) {
	for _, h := range hours {
		l := h.hour.In(b.loc)
		c := &m[(int(l.Weekday())+6)%7][l.Hour()]
		r := h.ratings()
		c.Count += r.Count
		for i, n := range h.n {
			c.RatingSum += n * (i + 1)
		}
		c.Low += h.n[0] + h.n[1]
	}
	return m
}

// nps returns the net promoter score of a distribution of scores 0 to
// 10: promoters (9, 10) minus detractors (0 to 6) in percent of all,
// rounded half away from zero.
func nps(dist []int) *int {
	all, promoters, detractors := 0, 0, 0
	for score, n := range dist {
		all += n
		switch {
		case score >= 9:
			promoters += n
		case score <= 6:
			detractors += n
		}
	}
	if all == 0 {
		return nil
	}
	return ptr(int(math.Round(float64(promoters-detractors) * 100 / float64(all))))
}
