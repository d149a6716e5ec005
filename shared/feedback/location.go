package feedback

// Location is a place where visitors leave feedback: a restroom, a lobby,
// a shop. Posters and kiosks belong to a location.
type Location struct {
	ID          string `json:"id"`
	Name        string `json:"name"`
	Description string `json:"description"`
	CreatedAt   Time   `json:"created_at"`
	UpdatedAt   Time   `json:"updated_at"`
}

// Length limits of location fields, in characters.
const (
	MaxLocationName        = 200
	MaxLocationDescription = 2000
)

// LocationInput is the body of POST /locations and PATCH /locations/{id}.
// In a PATCH, a nil field is left unchanged.
type LocationInput struct {
	Name        *string `json:"name"`
	Description *string `json:"description"`
}

// Validate cleans the input and checks it; create reports whether it is
// for a new location, where name is required.
func (in *LocationInput) Validate(create bool) error {
	var v Validator
	if in.Name != nil {
		v.checkText(in.Name, "name", MaxLocationName, true)
	} else if create {
		v.Add("name", "is required")
	}
	if in.Description != nil {
		v.checkText(in.Description, "description", MaxLocationDescription, false)
	}
	if !create && in.Name == nil && in.Description == nil {
		v.Add("body", "must change at least one of name, description")
	}
	return v.Err()
}
