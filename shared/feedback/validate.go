package feedback

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Validator collects the reasons an input is invalid, so that a client sees
// every problem at once instead of one per request.
type Validator struct {
	params []InvalidParam
}

// Check records reason for name when ok is false, and reports ok.
func (v *Validator) Check(ok bool, name, reason string) bool {
	if !ok {
		v.Add(name, reason)
	}
	return ok
}

// Add records that name is invalid for reason.
func (v *Validator) Add(name, reason string) {
	v.params = append(v.params, InvalidParam{Name: name, Reason: reason})
}

// Addf records a formatted reason for name.
func (v *Validator) Addf(name, format string, args ...any) {
	v.Add(name, fmt.Sprintf(format, args...))
}

// Valid reports whether nothing has been recorded.
func (v *Validator) Valid() bool { return len(v.params) == 0 }

// Err returns nil when the input is valid, or an [*Error] with code
// [EValidation] listing every recorded parameter.
func (v *Validator) Err() error {
	return v.errWith(EValidation, "The request body is invalid: %s %s.", "The request body has %d invalid fields; see invalid_params.")
}

// ParamErr is like Err for query and path parameters: the code is
// [EInvalidParameter] (400) instead of [EValidation].
func (v *Validator) ParamErr() error {
	return v.errWith(EInvalidParameter, "Invalid query parameter %s: %s.", "%d query parameters are invalid; see invalid_params.")
}

// errWith builds the error: one names the single invalid parameter and
// its reason, many counts them.
func (v *Validator) errWith(code, one, many string) error {
	if v.Valid() {
		return nil
	}
	msg := fmt.Sprintf(one, v.params[0].Name, v.params[0].Reason)
	if len(v.params) > 1 {
		msg = fmt.Sprintf(many, len(v.params))
	}
	return &Error{Code: code, Message: msg, Params: v.params}
}

// CleanText trims s and reports whether it is acceptable free text of at
// most max characters: valid UTF-8 without control characters other than
// newline and tab. The reason is "" when it is.
func CleanText(s string, max int) (string, string) {
	s, b := cleanText(s, max)
	if b.ok() {
		return s, ""
	}
	return s, RuleText(b.rule, b.args...)
}

// cleanText is CleanText with the reason as a rule.
func cleanText(s string, max int) (string, breach) {
	s = strings.TrimSpace(s)
	if !utf8.ValidString(s) {
		return s, broke(RuleUTF8)
	}
	for _, r := range s {
		if unicode.IsControl(r) && r != '\n' && r != '\t' && r != '\r' {
			return s, broke(RuleControlChars)
		}
	}
	if n := utf8.RuneCountInString(s); n > max {
		return s, broke(RuleMaxChars, itoa(max), itoa(n))
	}
	return s, breach{}
}

// checkText cleans *s in place and records a problem under name.
func (v *Validator) checkText(s *string, name string, max int, required bool) {
	cleaned, b := cleanText(*s, max)
	*s = cleaned
	if v.record(name, b) && required && cleaned == "" {
		v.Reject(name, RuleRequired)
	}
}

// ValidLanguage reports whether s looks like a BCP 47 language tag such as
// en, de-CH or zh-Hant-TW.
func ValidLanguage(s string) bool {
	if len(s) < 2 || len(s) > 35 {
		return false
	}
	for i, part := range strings.Split(s, "-") {
		if len(part) == 0 || len(part) > 8 || (i == 0 && (len(part) < 2 || len(part) > 3)) {
			return false
		}
		for _, c := range part {
			isLetter := (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z')
			if !isLetter && !(i > 0 && c >= '0' && c <= '9') {
				return false
			}
		}
	}
	return true
}
