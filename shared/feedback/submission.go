package feedback

import (
	"crypto/sha256"
	"encoding/json"
	"strings"
	"time"
)

// Source says how a submission reached the service.
type Source string

// The sources.
const (
	SourceQR    Source = "qr"    // a visitor's phone, through a poster link
	SourceKiosk Source = "kiosk" // a paired kiosk tablet
)

// Submission limits and clock rules.
const (
	MaxHygieneComment = 500
	MaxReviewComment  = 2000
	MaxEmail          = 254
	// MaxClockSkew is how far in the future captured_at may lie.
	MaxClockSkew = 10 * time.Minute
	// MaxSubmissionAge is how old captured_at may be: a kiosk may stay
	// offline for weeks, but not forever.
	MaxSubmissionAge = 30 * 24 * time.Hour
	// RevokedGrace is how long after a poster is revoked, or a form stops
	// being active, submissions captured before that moment are accepted.
	RevokedGrace = 7 * 24 * time.Hour
)

// Submission is what a visitor's device sends: the JSON body of
// POST /q/{code} and each item of a kiosk sync. ID is a UUID the client
// made when it rendered the form; sending the same ID again is safe.
// Which other fields are allowed depends on the form.
type Submission struct {
	ID             string                     `json:"id"`
	CapturedAt     *Time                      `json:"captured_at,omitempty"`
	Language       string                     `json:"language,omitempty"`
	Rating         *int                       `json:"rating,omitempty"`
	Tags           []string                   `json:"tags,omitempty"`
	Comment        *string                    `json:"comment,omitempty"`
	ContactEmail   *string                    `json:"contact_email,omitempty"`
	ContactConsent *bool                      `json:"contact_consent,omitempty"`
	Answers        map[string]json.RawMessage `json:"answers,omitempty"`
}

// Validate cleans and checks s for the form kind (survey is the survey's
// definition for [FormSurvey]) at server time now, normalising ids, text,
// tags and answers in place.
func (s *Submission) Validate(form FormKind, survey *Survey, now time.Time) error {
	var v Validator
	id, ok := ParseUUID(s.ID)
	if v.Ensure(ok, "id", RuleUUID) {
		s.ID = id
	}
	s.validateClock(&v, now)
	if s.Language != "" {
		v.Ensure(ValidLanguage(s.Language), "language", RuleLanguageTag)
	}
	switch form {
	case FormHygiene:
		s.validateHygiene(&v)
	case FormReview:
		s.validateReview(&v)
	case FormSurvey:
		s.validateSurvey(&v, survey)
	default:
		v.Reject("form", RuleUnknownForm)
	}
	return v.Err()
}

func (s *Submission) validateClock(v *Validator, now time.Time) {
	if s.CapturedAt == nil {
		return
	}
	t := s.CapturedAt.Time
	v.Ensure(!t.After(now.Add(MaxClockSkew)), "captured_at", RuleFuture)
	v.Ensure(!t.Before(now.Add(-MaxSubmissionAge)), "captured_at", RuleTooOld)
}

func (s *Submission) validateHygiene(v *Validator) {
	s.checkRating(v, 1, 5)
	s.Tags = checkTags(v, s.Tags)
	s.checkComment(v, MaxHygieneComment)
	v.Ensure(s.ContactEmail == nil, "contact_email", RuleNotHygieneField)
	v.Ensure(s.ContactConsent == nil, "contact_consent", RuleNotHygieneField)
	v.Ensure(s.Answers == nil, "answers", RuleNotHygieneField)
}

func (s *Submission) validateReview(v *Validator) {
	s.checkRating(v, 1, 5)
	s.checkComment(v, MaxReviewComment)
	v.Ensure(s.Tags == nil, "tags", RuleNotReviewField)
	v.Ensure(s.Answers == nil, "answers", RuleNotReviewField)
	consent := s.ContactConsent != nil && *s.ContactConsent
	if s.ContactEmail != nil && *s.ContactEmail == "" {
		s.ContactEmail = nil
	}
	if s.ContactEmail == nil {
		v.Ensure(!consent, "contact_email", RuleEmailRequired)
		return
	}
	*s.ContactEmail = strings.TrimSpace(*s.ContactEmail)
	if !v.Ensure(ValidEmail(*s.ContactEmail), "contact_email", RuleEmail) {
		return
	}
	v.Ensure(consent, "contact_consent", RuleConsentRequired)
}

func (s *Submission) validateSurvey(v *Validator, survey *Survey) {
	v.Ensure(s.Rating == nil, "rating", RuleSurveyRating)
	v.Ensure(s.Tags == nil, "tags", RuleNotSurveyField)
	v.Ensure(s.Comment == nil, "comment", RuleSurveyComment)
	v.Ensure(s.ContactEmail == nil, "contact_email", RuleNotSurveyField)
	v.Ensure(s.ContactConsent == nil, "contact_consent", RuleNotSurveyField)
	if survey == nil {
		v.Reject("answers", RuleUnknownSurvey)
		return
	}
	s.Answers = checkAnswers(v, survey.Questions, s.Answers)
}

func (s *Submission) checkRating(v *Validator, min, max int) {
	if s.Rating == nil {
		v.Reject("rating", RuleRequired)
		return
	}
	v.Ensure(*s.Rating >= min && *s.Rating <= max, "rating", RuleIntRange, itoa(min), itoa(max))
}

func (s *Submission) checkComment(v *Validator, max int) {
	if s.Comment != nil {
		v.checkText(s.Comment, "comment", max, false)
	}
}

// Hash returns a digest of the normalised submission. Two sends of the same
// submission have the same hash, whether they came as JSON or as a form.
func (s *Submission) Hash() []byte {
	b, _ := json.Marshal(s) // struct fields in order, map keys sorted: deterministic
	h := sha256.Sum256(b)
	return h[:]
}

// CapturedTime returns captured_at, or now when the client did not send one.
func (s *Submission) CapturedTime(now time.Time) time.Time {
	if s.CapturedAt == nil {
		return now
	}
	return s.CapturedAt.Time
}
