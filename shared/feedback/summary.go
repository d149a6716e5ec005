package feedback

import "time"

// MaxSummarySpan is the longest time range one summary may cover: a
// summary is meant for a day or a week of a dashboard, not for reports.
const MaxSummarySpan = 31 * 24 * time.Hour

// Summary answers GET /summary: what visitors submitted from From
// (inclusive) to To (exclusive), per location. The dashboard asks for
// the browser's local day.
type Summary struct {
	From Time `json:"from"`
	To   Time `json:"to"`
	// Locations lists the locations with at least one submission in the
	// range, deleted ones included, ordered by id.
	Locations []LocationSummary `json:"locations"`
}

// LocationSummary is one location's part of a [Summary].
type LocationSummary struct {
	LocationID      string        `json:"location_id"`
	Hygiene         RatingSummary `json:"hygiene"`
	ReviewResponses RatingSummary `json:"review_responses"`
	SurveyResponses int           `json:"survey_responses"`
}

// RatingSummary counts rated submissions and totals their ratings.
type RatingSummary struct {
	Count int `json:"count"`
	// RatingSum is the sum of the ratings (1 to 5 each): the average is
	// RatingSum/Count, and a client adding submissions it learns of
	// later keeps it exact.
	RatingSum int `json:"rating_sum"`
}

// Add counts one more submission with rating.
func (r *RatingSummary) Add(rating int) {
	r.Count++
	r.RatingSum += rating
}

// Average returns the average rating, and reports whether there is one.
func (r RatingSummary) Average() (float64, bool) {
	if r.Count == 0 {
		return 0, false
	}
	return float64(r.RatingSum) / float64(r.Count), true
}
