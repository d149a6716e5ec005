package feedback

// FormKind names what a poster or kiosk collects.
type FormKind string

// The form kinds.
const (
	FormHygiene FormKind = "hygiene"
	FormReview  FormKind = "review"
	FormSurvey  FormKind = "survey"
)

// FormRef says which form a poster or kiosk shows: the hygiene rating, a
// review (ReviewID) or a survey (SurveyID).
type FormRef struct {
	Form     FormKind `json:"form"`
	ReviewID string   `json:"review_id,omitempty"`
	SurveyID string   `json:"survey_id,omitempty"`
}

// Validate checks that the reference names exactly what its kind needs and
// normalises the ids.
func (f *FormRef) Validate(v *Validator) {
	switch f.Form {
	case FormHygiene:
		v.Check(f.ReviewID == "", "review_id", "must be empty for the hygiene form")
		v.Check(f.SurveyID == "", "survey_id", "must be empty for the hygiene form")
	case FormReview:
		checkRefID(v, &f.ReviewID, "review_id", "is required for a review form")
		v.Check(f.SurveyID == "", "survey_id", "must be empty for a review form")
	case FormSurvey:
		checkRefID(v, &f.SurveyID, "survey_id", "is required for a survey form")
		v.Check(f.ReviewID == "", "review_id", "must be empty for a survey form")
	default:
		v.Add("form", `must be one of "hygiene", "review", "survey"`)
	}
}

func checkRefID(v *Validator, id *string, name, missing string) {
	if *id == "" {
		v.Add(name, missing)
		return
	}
	c, ok := ParseUUID(*id)
	if v.Check(ok, name, "must be a UUID") {
		*id = c
	}
}

// FormView is what a device needs to render a form: the kind, the place
// and, for a review or survey, its definition. GET /kiosk/config answers
// it, and the visitor page is rendered from it.
type FormView struct {
	Form         FormKind `json:"form"`
	LocationName string   `json:"location_name"`
	Review       *Review  `json:"review,omitempty"`
	Survey       *Survey  `json:"survey,omitempty"`
}
