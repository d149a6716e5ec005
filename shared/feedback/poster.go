package feedback

// PosterStatus is active or revoked.
type PosterStatus string

// The poster states. A revoked poster serves no new forms, but submissions
// captured before the revocation are still accepted for [RevokedGrace].
const (
	PosterActive  PosterStatus = "active"
	PosterRevoked PosterStatus = "revoked"
)

// Poster is a printed QR code at a location. Its visitor URL carries a
// signed code naming the poster, so the link alone authenticates a visitor.
type Poster struct {
	ID         string `json:"id"`
	LocationID string `json:"location_id"`
	FormRef
	Label     string       `json:"label"`
	Status    PosterStatus `json:"status"`
	Code      string       `json:"code"`
	URL       string       `json:"url"`
	CreatedAt Time         `json:"created_at"`
	RevokedAt *Time        `json:"revoked_at"`
}

// MaxPosterLabel is the longest poster label, in characters.
const MaxPosterLabel = 200

// MaxPrintPosters is how many posters one print of several
// (GET /posters/print.pdf) takes.
const MaxPrintPosters = 50

// PosterInput is the body of POST /locations/{id}/posters.
type PosterInput struct {
	FormRef
	Label string `json:"label"`
}

// Validate cleans and checks the input.
func (in *PosterInput) Validate() error {
	var v Validator
	in.FormRef.Validate(&v)
	v.checkText(&in.Label, "label", MaxPosterLabel, false)
	return v.Err()
}
