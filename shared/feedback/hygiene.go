package feedback

// HygieneSubmission is one hygiene rating: 1 (very dirty) to 5 (very clean),
// with optional tags and comment.
type HygieneSubmission struct {
	ID         string   `json:"id"`
	Rating     int      `json:"rating"`
	LocationID string   `json:"location_id"`
	PosterID   string   `json:"poster_id,omitempty"`
	Tags       []string `json:"tags"`
	Comment    string   `json:"comment"`
	Language   string   `json:"language"`
	Source     Source   `json:"source"`
	DeviceID   string   `json:"device_id,omitempty"`
	CapturedAt Time     `json:"captured_at"`
	CreatedAt  Time     `json:"created_at"`
}
