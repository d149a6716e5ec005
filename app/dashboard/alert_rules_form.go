package dashboard

import (
	"strconv"
	"strings"

	"github.com/feedbackhq/feedback/shared/feedback"
)

// ruleForm is what is typed for a rule, as text, and its fields' reasons
// for refusal, by the API's field names.
type ruleForm struct {
	id       string // the rule edited; "" for a new one
	name     string
	kind     string
	location string // "" for every location
	count    string
	rating   string
	average  string
	tag      string
	window   string
	cooldown string
	emails   string
	enabled  bool
	errs     map[string]string
}

// newRuleForm is the form of a new rule, with the example.
func newRuleForm() *ruleForm {
	return &ruleForm{kind: feedback.RuleLowRatings, count: "3", rating: "2", average: "2.5", window: "10",
		cooldown: "30", enabled: true, errs: map[string]string{}}
}

// editRuleForm is the form of rule r.
func editRuleForm(r feedback.AlertRule) *ruleForm {
	f := newRuleForm()
	f.id, f.name, f.kind, f.tag, f.enabled = r.ID, r.Name, r.Kind, r.Tag, r.Enabled
	if r.LocationID != nil {
		f.location = *r.LocationID
	}
	f.count, f.window, f.cooldown = strconv.Itoa(r.Count), strconv.Itoa(r.WindowMinutes), strconv.Itoa(r.CooldownMinutes)
	if r.Rating > 0 {
		f.rating = strconv.Itoa(r.Rating)
	}
	if r.Average > 0 {
		f.average = strconv.FormatFloat(r.Average, 'f', -1, 64)
	}
	f.emails = strings.Join(r.Emails, "\n")
	return f
}

// uses reports whether the form's kind has the field name.
func (f *ruleForm) uses(name string) bool {
	switch name {
	case "count":
		return f.kind != feedback.RuleKioskOffline
	case "rating":
		return f.kind == feedback.RuleLowRatings
	case "average":
		return f.kind == feedback.RuleAverageBelow
	case "tag":
		return f.kind == feedback.RuleTagReported
	}
	return true
}

// input checks what is typed and returns the request's body; on a
// mistake it fills f.errs and reports false.
func (f *ruleForm) input() (feedback.AlertRuleInput, bool) {
	f.errs = map[string]string{}
	in := feedback.AlertRuleInput{}
	name := strings.TrimSpace(f.name)
	if name == "" {
		f.errs["name"] = "is required: say what the rule watches, for example “Dirty washrooms”"
	}
	in.Name = &name
	if f.id == "" {
		in.Kind = &f.kind
	}
	loc := f.location
	in.LocationID = &loc
	in.WindowMinutes = f.whole("window_minutes", f.window, 1, 10080)
	in.CooldownMinutes = f.whole("cooldown_minutes", f.cooldown, 0, 10080)
	if f.uses("count") {
		in.Count = f.whole("count", f.count, 1, 1000)
	}
	if f.uses("rating") {
		in.Rating = f.whole("rating", f.rating, 1, 4)
	}
	if f.uses("average") {
		in.Average = f.decimal("average", f.average, 1, 5)
	}
	if f.uses("tag") {
		tag := strings.TrimSpace(f.tag)
		if tag == "" {
			f.errs["tag"] = "is required: give the tag as visitors choose it, for example “no soap”"
		}
		in.Tag = &tag
	}
	emails, ok := parseEmails(f.emails)
	if !ok {
		f.errs["emails"] = "must be email addresses, separated by commas or lines, at most 20"
	}
	in.Emails = &emails
	in.Enabled = &f.enabled
	return in, len(f.errs) == 0
}

// whole reads a whole number from min to max for the field name.
func (f *ruleForm) whole(name, text string, min, max int) *int {
	n, err := strconv.Atoi(strings.TrimSpace(text))
	if err != nil || n < min || n > max {
		f.errs[name] = "must be a whole number from " + strconv.Itoa(min) + " to " + thousands(max)
		return nil
	}
	return &n
}

// decimal reads a number from min to max for the field name.
func (f *ruleForm) decimal(name, text string, min, max float64) *float64 {
	x, err := strconv.ParseFloat(strings.ReplaceAll(strings.TrimSpace(text), ",", "."), 64)
	if err != nil || x < min || x > max {
		f.errs[name] = "must be a number from " + strconv.FormatFloat(min, 'f', -1, 64) + " to " + strconv.FormatFloat(max, 'f', -1, 64)
		return nil
	}
	return &x
}

// parseEmails splits the addresses typed at commas, semicolons, spaces
// and lines, and reports whether each is an address as the service
// accepts them (feedback.ValidEmail) and there are at most 20.
func parseEmails(text string) ([]string, bool) {
	out := []string{}
	for _, e := range strings.FieldsFunc(text, func(r rune) bool { return r == ',' || r == ';' || r == ' ' || r == '\n' || r == '\t' || r == '\r' }) {
		if !feedback.ValidEmail(e) {
			return out, false
		}
		out = append(out, e)
	}
	return out, len(out) <= 20
}

// setErrs keeps the service's reasons, by field; the reasons of one
// address ("emails[2]") go to the emails.
func (f *ruleForm) setErrs(errs map[string]string) {
	f.errs = map[string]string{}
	for k, v := range errs {
		if strings.HasPrefix(k, "emails") {
			k = "emails"
		}
		f.errs[k] = v
	}
}

// ruleText says what rule r watches, for people.
func ruleText(r feedback.AlertRule) string {
	w := plural(r.WindowMinutes, "minute", "minutes")
	switch r.Kind {
	case feedback.RuleLowRatings:
		return plural(r.Count, "rating", "ratings") + " of " + strconv.Itoa(r.Rating) + " or less within " + w
	case feedback.RuleAverageBelow:
		return "An average below " + strconv.FormatFloat(r.Average, 'f', -1, 64) + " over " + w +
			" (at least " + plural(r.Count, "rating", "ratings") + ")"
	case feedback.RuleTagReported:
		return "“" + r.Tag + "” reported " + plural(r.Count, "time", "times") + " within " + w
	case feedback.RuleKioskOffline:
		return "A kiosk offline for longer than " + w
	}
	return r.Kind
}

// ruleKindNames names each kind of rule in the form.
var ruleKindNames = map[string]string{
	feedback.RuleLowRatings:   "Low ratings",
	feedback.RuleAverageBelow: "Low average",
	feedback.RuleTagReported:  "Tag reported",
	feedback.RuleKioskOffline: "Kiosk offline",
}

// ruleKindHints says when a rule of each kind raises an alert.
var ruleKindHints = map[string]string{
	feedback.RuleLowRatings:   "Raises an alert when N ratings of X or less arrive within W minutes at a location.",
	feedback.RuleAverageBelow: "Raises an alert when the average rating over W minutes falls below X at a location, once at least N ratings arrived.",
	feedback.RuleTagReported:  "Raises an alert when visitors report a tag N times within W minutes at a location.",
	feedback.RuleKioskOffline: "Raises an alert when a kiosk has been offline for longer than W minutes.",
}
