package offline

import (
	"fmt"
	"strings"

	"github.com/feedbackhq/feedback/shared/client"
	"github.com/feedbackhq/feedback/shared/feedback"
)

const idempotencyConflict = feedback.EIdempotencyConflict

// problemOf returns the problem code of an answer's body, if it is a
// problem, and a sentence for Item.LastError.
func problemOf(status int, body []byte) (code, detail string) {
	p, ok := client.DecodeProblem(status, body)
	switch {
	case ok:
		return problemText(status, p)
	case p.Detail == "":
		return "", fmt.Sprintf("HTTP %d", status)
	}
	return "", fmt.Sprintf("HTTP %d: %s", status, p.Detail)
}

// problemText returns p's code and its detail followed by the invalid
// parameters, or a generic sentence when p is nil.
func problemText(status int, p *feedback.Problem) (code, detail string) {
	if p == nil {
		return "", fmt.Sprintf("HTTP %d", status)
	}
	var b strings.Builder
	b.WriteString(p.Detail)
	if b.Len() == 0 {
		b.WriteString(p.Title)
	}
	if b.Len() == 0 {
		fmt.Fprintf(&b, "HTTP %d %s", status, p.Code)
	}
	for i, ip := range p.InvalidParams {
		sep := "; "
		if i == 0 {
			sep = " ("
		}
		fmt.Fprintf(&b, "%s%s %s", sep, ip.Name, ip.Reason)
	}
	if len(p.InvalidParams) > 0 {
		b.WriteString(")")
	}
	return p.Code, b.String()
}
