package feedback_test

import (
	"strings"
	"testing"

	"github.com/feedbackhq/feedback/shared/feedback"
)

func TestValidEmail(t *testing.T) {
	good := []string{"ann@example.com", "a.b+c@sub.example.co.uk", "x_y-z@e-x.io", "1@2.de"}
	bad := []string{"", "ann", "ann@", "@example.com", "ann@example", "Ann <ann@example.com>", "a b@example.com",
		"ann@@example.com", "ann@exa_mple.com", "ann@-example.com", ".ann@example.com", "a..b@example.com",
		"ann@example..com", `"ann"@example.com`, "ann@example.com" + strings.Repeat("m", 250), strings.Repeat("a", 65) + "@e.com"}
	for _, s := range good {
		if !feedback.ValidEmail(s) {
			t.Errorf("ValidEmail(%q) = false", s)
		}
	}
	for _, s := range bad {
		if feedback.ValidEmail(s) {
			t.Errorf("ValidEmail(%q) = true", s)
		}
	}
}
