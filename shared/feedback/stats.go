package feedback

import "time"

// Buckets of a statistics series (the bucket query parameter). Days and
// weeks (Monday to Sunday) are those of the workspace's time zone.
const (
	BucketHour = "hour"
	BucketDay  = "day"
	BucketWeek = "week"
)

// MaxStatsSpan is the longest range one statistics request may cover:
// a year and a day, so that a year of hourly buckets is one request.
const MaxStatsSpan = 367 * 24 * time.Hour

// StatsQuery is what a statistics request asks for: From (inclusive) to
// To (exclusive), in buckets of Bucket, optionally for one location. The
// statistics count submissions by captured_at, when the visitor rated,
// not when a kiosk synced it (docs/decisions.md).
type StatsQuery struct {
	From       Time
	To         Time
	Bucket     string // BucketHour, BucketDay or BucketWeek; day when empty
	LocationID string // "" for the whole workspace
}

// RatingStats counts ratings 1 to 5.
type RatingStats struct {
	Count int `json:"count"`
	// Average is the average rating; null when Count is 0.
	Average *float64 `json:"average"`
	// Distribution counts each rating: Distribution[0] is rating 1.
	Distribution [5]int `json:"distribution"`
}

// HygieneBucket is the hygiene ratings of one bucket (or of a whole range).
type HygieneBucket struct {
	// Start is the bucket's first instant (its local midnight, for a day
	// or week); the zero time in a range's total.
	Start Time `json:"start"`
	RatingStats
	// LowShare is the share (0 to 1) of ratings of 2 or less; null when
	// Count is 0.
	LowShare *float64 `json:"low_share"`
	// Tags counts each reported tag (every tag of HygieneTags, 0 included).
	Tags map[string]int `json:"tags"`
}

// HeatCell is one hour of one weekday in a [HygieneStats] heatmap.
type HeatCell struct {
	Count     int `json:"count"`
	RatingSum int `json:"rating_sum"`
	Low       int `json:"low"` // ratings of 2 or less
}

// HygieneStats answers GET /stats/hygiene.
type HygieneStats struct {
	From       Time   `json:"from"`
	To         Time   `json:"to"`
	Bucket     string `json:"bucket"`
	TimeZone   string `json:"time_zone"`
	LocationID string `json:"location_id,omitempty"`
	// Total is the whole range.
	Total HygieneBucket `json:"total"`
	// Buckets lists, oldest first, the buckets with at least one rating.
	Buckets []HygieneBucket `json:"buckets"`
	// Heatmap[d][h] is weekday d (0 Monday ... 6 Sunday) at local hour h
	// over the whole range.
	Heatmap [7][24]HeatCell `json:"heatmap"`
}

// LocationTrend is one location's part of [LocationStats].
type LocationTrend struct {
	LocationID string        `json:"location_id"`
	Total      HygieneBucket `json:"total"`
	// Buckets lists, oldest first, the buckets with at least one rating.
	Buckets []HygieneBucket `json:"buckets"`
}

// LocationStats answers GET /stats/locations: every location with at
// least one hygiene rating in the range (deleted ones included), with
// its series, for rankings and sparklines; ordered by location id.
type LocationStats struct {
	From      Time            `json:"from"`
	To        Time            `json:"to"`
	Bucket    string          `json:"bucket"`
	TimeZone  string          `json:"time_zone"`
	Locations []LocationTrend `json:"locations"`
}

// RatingBucket is a [RatingStats] of one bucket.
type RatingBucket struct {
	Start Time `json:"start"`
	RatingStats
}

// ReviewStats answers GET /stats/reviews/{id}.
type ReviewStats struct {
	ReviewID   string         `json:"review_id"`
	From       Time           `json:"from"`
	To         Time           `json:"to"`
	Bucket     string         `json:"bucket"`
	TimeZone   string         `json:"time_zone"`
	LocationID string         `json:"location_id,omitempty"`
	Total      RatingStats    `json:"total"`
	Buckets    []RatingBucket `json:"buckets"`
}

// CountBucket is the number of responses in one bucket.
type CountBucket struct {
	Start Time `json:"start"`
	Count int  `json:"count"`
}

// QuestionStats is what a survey's responses answered to one question.
// Only the fields of the question's type are set.
type QuestionStats struct {
	QuestionID string       `json:"question_id"`
	Type       QuestionType `json:"type"`
	// Responses counts the responses that answered the question.
	Responses int `json:"responses"`
	// Distribution counts each value: ratings 1–5 (index 0 is 1) or NPS
	// scores 0–10 (index 0 is 0). Rating and NPS questions only.
	Distribution []int `json:"distribution,omitempty"`
	// Average of the values; rating and NPS questions with answers only.
	Average *float64 `json:"average,omitempty"`
	// NPS is the net promoter score, promoters (9–10) minus detractors
	// (0–6) in percent of the answers, -100 to 100; NPS questions with
	// answers only.
	NPS *int `json:"nps,omitempty"`
	// Choices counts each option id (every option, 0 included); choice
	// questions only.
	Choices map[string]int `json:"choices,omitempty"`
	// Yes and No count the answers of a yes/no question.
	Yes *int `json:"yes,omitempty"`
	No  *int `json:"no,omitempty"`
}

// SurveyStats answers GET /stats/surveys/{id}.
type SurveyStats struct {
	SurveyID   string          `json:"survey_id"`
	From       Time            `json:"from"`
	To         Time            `json:"to"`
	Bucket     string          `json:"bucket"`
	TimeZone   string          `json:"time_zone"`
	LocationID string          `json:"location_id,omitempty"`
	Responses  int             `json:"responses"`
	Buckets    []CountBucket   `json:"buckets"`
	Questions  []QuestionStats `json:"questions"`
}

// WorkspaceSettings is the body of GET and PATCH /workspace/settings.
type WorkspaceSettings struct {
	// TimeZone is an IANA zone name ("Europe/Berlin"); "UTC" by default.
	// Statistics' days, weeks and heatmap hours are its.
	TimeZone string `json:"time_zone"`
}

// AuditWorkspaceSettings is the audit action of a change of
// [WorkspaceSettings]; its details hold the new time_zone.
const AuditWorkspaceSettings = "workspace.settings_changed"
