package offline

import (
	"encoding/json"
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/feedbackhq/feedback/shared/feedback"
)

const idempotencyConflict = feedback.EIdempotencyConflict

// maxDetail bounds the text kept from a body that is not a problem.
const maxDetail = 200

// problemOf returns the problem code of an answer's body, if it is a
// problem, and a sentence for Item.LastError.
func problemOf(status int, body []byte) (code, detail string) {
	var p feedback.Problem
	if json.Unmarshal(body, &p) == nil && (p.Code != "" || p.Detail != "") {
		return problemText(status, &p)
	}
	text := strings.TrimSpace(string(body))
	if len(text) > maxDetail {
		text = text[:maxDetail]
		for !utf8.ValidString(text) {
			text = text[:len(text)-1]
		}
		text += "…"
	}
	if text == "" {
		return "", fmt.Sprintf("HTTP %d", status)
	}
	return "", fmt.Sprintf("HTTP %d: %s", status, text)
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
