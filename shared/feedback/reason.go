package feedback

import (
	"fmt"
	"slices"
	"strconv"
)

// Rules a submission can break. Each is a key that pages translate
// (shared/i18n holds "reason_"+rule in every language) and an English
// text with %s for its arguments, which the API answers as the reason: a
// page says "Kommentar: darf höchstens 500 Zeichen lang sein", the API
// keeps saying "must be at most 500 characters (got 601)".
const (
	RuleRequired        = "required"
	RuleUUID            = "uuid"
	RuleFuture          = "future"
	RuleTooOld          = "too_old"
	RuleDateTime        = "date_time"
	RuleLanguageTag     = "language_tag"
	RuleUnknownForm     = "unknown_form"
	RuleNotHygieneField = "not_hygiene_field"
	RuleNotReviewField  = "not_review_field"
	RuleNotSurveyField  = "not_survey_field"
	RuleSurveyRating    = "survey_rating"
	RuleSurveyComment   = "survey_comment"
	RuleNotFormField    = "not_form_field"
	RuleTooManyValues   = "too_many_values"
	RuleInteger         = "integer"
	RuleIntRange        = "int_range" // args: min, max
	RuleBool            = "bool"
	RuleString          = "string"
	RuleEmail           = "email"
	RuleEmailRequired   = "email_required"
	RuleConsentRequired = "consent_required"
	RuleUTF8            = "utf8"
	RuleControlChars    = "control_chars"
	RuleMaxChars        = "max_chars" // args: max, got
	RuleTag             = "tag"
	RuleRepeated        = "repeated"
	RuleUnknownSurvey   = "unknown_survey"
	RuleNotQuestion     = "not_question"
	RuleUnknownType     = "unknown_type"
	RuleOption          = "option"
	RuleOptionList      = "option_list"
	RuleNotOption       = "not_option"   // args: the quoted option id
	RuleOptionTwice     = "option_twice" // args: the quoted option id
	RuleMinOneOption    = "min_one_option"
)

// ruleText is the English of each rule, as the API has always said it.
var ruleText = map[string]string{
	RuleRequired:        "is required",
	RuleUUID:            "must be a UUID",
	RuleFuture:          "must not be in the future",
	RuleTooOld:          "must be at most 30 days old",
	RuleDateTime:        "must be an RFC 3339 date-time",
	RuleLanguageTag:     "must be a language tag such as en or de-CH",
	RuleUnknownForm:     "is unknown",
	RuleNotHygieneField: "is not a field of the hygiene form",
	RuleNotReviewField:  "is not a field of the review form",
	RuleNotSurveyField:  "is not a field of a survey",
	RuleSurveyRating:    "is not a field of a survey; answer its questions",
	RuleSurveyComment:   "is not a field of a survey; use a text question",
	RuleNotFormField:    "is not a field of this form",
	RuleTooManyValues:   "has too many values",
	RuleInteger:         "must be an integer",
	RuleIntRange:        "must be an integer from %s to %s",
	RuleBool:            "must be true or false",
	RuleString:          "must be a string",
	RuleEmail:           "must be an email address",
	RuleEmailRequired:   "is required when contact_consent is true",
	RuleConsentRequired: "must be true to leave a contact email",
	RuleUTF8:            "must be valid UTF-8",
	RuleControlChars:    "must not contain control characters",
	RuleMaxChars:        "must be at most %s characters (got %s)",
	RuleTag:             "must be one of no_soap, no_paper, dirty_floor, dirty_toilet, bad_smell, out_of_order",
	RuleRepeated:        "is repeated",
	RuleUnknownSurvey:   "cannot be checked: the survey is unknown",
	RuleNotQuestion:     "is not a question of this survey",
	RuleUnknownType:     "belongs to a question of unknown type",
	RuleOption:          "must be the id of one of the question's options",
	RuleOptionList:      "must be a list of option ids",
	RuleNotOption:       "holds %s, which is not an option of the question",
	RuleOptionTwice:     "holds %s twice",
	RuleMinOneOption:    "must choose at least one option",
}

// Rules lists every rule, sorted.
func Rules() []string {
	out := make([]string, 0, len(ruleText))
	for r := range ruleText {
		out = append(out, r)
	}
	slices.Sort(out)
	return out
}

// RuleText returns the English reason of rule with args.
func RuleText(rule string, args ...string) string {
	vals := make([]any, len(args))
	for i, a := range args {
		vals[i] = a
	}
	return fmt.Sprintf(ruleText[rule], vals...)
}

// breach is a broken rule with its arguments; the zero breach breaks
// nothing.
type breach struct {
	rule string
	args []string
}

func broke(rule string, args ...string) breach { return breach{rule, args} }

// ok reports whether b breaks nothing.
func (b breach) ok() bool { return b.rule == "" }

// Reject records that name breaks rule; args fill the rule's text.
func (v *Validator) Reject(name, rule string, args ...string) {
	v.params = append(v.params, InvalidParam{Name: name, Reason: RuleText(rule, args...), Rule: rule, Args: args})
}

// Ensure records that name breaks rule when ok is false, and reports ok.
func (v *Validator) Ensure(ok bool, name, rule string, args ...string) bool {
	if !ok {
		v.Reject(name, rule, args...)
	}
	return ok
}

// record records b for name unless it breaks nothing, and reports
// whether it breaks nothing.
func (v *Validator) record(name string, b breach) bool {
	if !b.ok() {
		v.Reject(name, b.rule, b.args...)
	}
	return b.ok()
}

// itoa is strconv.Itoa, for rule arguments.
func itoa(n int) string { return strconv.Itoa(n) }
