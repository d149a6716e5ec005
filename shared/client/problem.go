package client

import (
	"encoding/json"
	"strings"
	"unicode/utf8"

	"github.com/feedbackhq/feedback/shared/feedback"
)

// BlankType is the Type of a problem that [DecodeProblem] made from an
// answer that was not one (RFC 9457's "about:blank": only the status
// means something).
const BlankType = "about:blank"

// maxDetail bounds the text kept from an error answer that is not a
// problem (a proxy's HTML page, say).
const maxDetail = 200

// DecodeProblem decodes the body of an error answer with status, and
// reports whether it was a problem (JSON with a code or a detail). Any
// other body comes back as a problem of type [BlankType] with the status,
// the code [feedback.EInternal] and the start of the body as its detail. It is
// the app's one problem decoder: [Client.Do] returns its result as the
// error, and the offline queue reads the code of a refusal with it.
func DecodeProblem(status int, body []byte) (p *feedback.Problem, ok bool) {
	p = &feedback.Problem{}
	if json.Unmarshal(body, p) == nil && (p.Code != "" || p.Detail != "") {
		if p.Status == 0 {
			p.Status = status
		}
		return p, true
	}
	return &feedback.Problem{Type: BlankType, Status: status, Code: feedback.EInternal, Detail: shorten(strings.TrimSpace(string(body)))}, false
}

// shorten cuts text to maxDetail bytes on a rune boundary, marking the cut.
func shorten(text string) string {
	if len(text) <= maxDetail {
		return text
	}
	text = text[:maxDetail]
	for !utf8.ValidString(text) {
		text = text[:len(text)-1]
	}
	return text + "…"
}
