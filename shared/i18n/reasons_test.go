package i18n_test

import (
	"strings"
	"testing"

	"github.com/feedbackhq/feedback/shared/feedback"
	"github.com/feedbackhq/feedback/shared/i18n"
)

// TestEveryRuleIsTranslated: a page can say every reason a submission is
// refused for in each language, with the rule's arguments in it.
func TestEveryRuleIsTranslated(t *testing.T) {
	for _, rule := range feedback.Rules() {
		key := "reason_" + rule
		verbs := strings.Count(feedback.RuleText(rule), "%!s(MISSING)")
		for _, lang := range i18n.Languages {
			text := i18n.T(lang, key)
			if text == key {
				t.Errorf("%s has no text for rule %s", lang, rule)
				continue
			}
			if n := strings.Count(text, "%s"); n != verbs {
				t.Errorf("%s %s: %q takes %d arguments, the rule has %d", lang, key, text, n, verbs)
			}
		}
	}
}
