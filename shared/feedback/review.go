package feedback

// Review is a form that asks visitors for a star rating and a comment.
type Review struct {
	ID              string `json:"id"`
	Title           string `json:"title"`
	Status          Status `json:"status"`
	CreatedAt       Time   `json:"created_at"`
	UpdatedAt       Time   `json:"updated_at"`
	StatusChangedAt Time   `json:"status_changed_at"`
}

// MaxTitle is the longest review or survey title, in characters.
const MaxTitle = 200

// ReviewInput is the body of POST /review and PATCH /review/{id}. A nil
// field is left unchanged; a new review always starts as draft.
type ReviewInput struct {
	Title  *string `json:"title"`
	Status *Status `json:"status"`
}

// Validate cleans and checks the input; create reports whether it is for
// a new review.
func (in *ReviewInput) Validate(create bool) error {
	var v Validator
	validateTitleStatus(&v, in.Title, in.Status, create, false)
	return v.Err()
}

// validateTitleStatus checks the fields reviews and surveys share; other
// reports whether the input changes something else as well.
func validateTitleStatus(v *Validator, title *string, status *Status, create, other bool) {
	if title != nil {
		v.checkText(title, "title", MaxTitle, true)
	} else if create {
		v.Add("title", "is required")
	}
	if status != nil {
		if create {
			v.Add("status", "cannot be set on create; a new form starts as draft")
		} else {
			v.Check(status.Valid(), "status", "must be one of draft, active, paused, closed, archived")
		}
	}
	if !create && !other && title == nil && status == nil {
		v.Add("body", "must change at least one field")
	}
}

// ReviewResponse is what a visitor submitted to a review.
type ReviewResponse struct {
	ID             string `json:"id"`
	ReviewID       string `json:"review_id"`
	LocationID     string `json:"location_id"`
	PosterID       string `json:"poster_id,omitempty"`
	Rating         int    `json:"rating"`
	Comment        string `json:"comment"`
	ContactEmail   string `json:"contact_email,omitempty"`
	ContactConsent bool   `json:"contact_consent"`
	Language       string `json:"language"`
	Source         Source `json:"source"`
	DeviceID       string `json:"device_id,omitempty"`
	CapturedAt     Time   `json:"captured_at"`
	CreatedAt      Time   `json:"created_at"`
}
