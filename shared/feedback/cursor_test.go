package feedback_test

import (
	"net/url"
	"testing"
	"time"

	"github.com/feedbackhq/feedback/shared/feedback"
)

func TestCursorRoundTrip(t *testing.T) {
	c := feedback.Cursor{CreatedAt: time.Date(2026, 11, 21, 7, 47, 29, 507123000, time.UTC), ID: "019a8f2e-0a1b-7c2d-8e3f-4a5b6c7d8e9f"}
	q := url.Values{feedback.ParamCursor: {c.String()}}
	p, err := feedback.ParseListParams(q, feedback.ParamCursor)
	if err != nil || p.After == nil || *p.After != c {
		t.Fatalf("ParseListParams(%v) = %+v, %v; want After %+v", q, p.After, err, c)
	}
	if got := p.Values().Get(feedback.ParamCursor); got != c.String() {
		t.Errorf("Values() cursor = %q, want %q", got, c.String())
	}
}

func TestCursorMalformed(t *testing.T) {
	valid := feedback.Cursor{CreatedAt: time.Unix(1, 0), ID: "019a8f2e-0a1b-7c2d-8e3f-4a5b6c7d8e9f"}.String()
	for _, query := range []string{"cursor=", "cursor=%21", "cursor=bm90LWEtY3Vyc29y", "cursor=MTIzLm5vdC1hLXV1aWQ",
		"page=2&cursor=" + valid} {
		q, _ := url.ParseQuery(query)
		_, err := feedback.ParseListParams(q, feedback.ParamCursor)
		e, ok := err.(*feedback.Error)
		if !ok || e.Code != feedback.EInvalidParameter || len(e.Params) != 1 || e.Params[0].Name != feedback.ParamCursor {
			t.Errorf("%s: %#v; want one invalid param named cursor", query, err)
		}
	}
}
