package dashboard

import (
	"testing"
	"time"

	"github.com/feedbackhq/feedback/shared/feedback"
)

func TestPlacesRoutes(t *testing.T) {
	for path, want := range map[string]string{
		"/w/demo/locations": "locations", "/w/demo/posters": "posters", "/w/demo/kiosks": "kiosks",
	} {
		slug, r, ok := parsePath(path)
		if !ok || slug != "demo" || r == nil || r.name != want {
			t.Errorf("parsePath(%q) = %q, %v, %v; want demo, the %s page", path, slug, r, ok, want)
		}
	}
	if got := postersPath("demo", "a b"); got != "/w/demo/posters?location=a+b" {
		t.Errorf("postersPath = %q", got)
	}
}

func TestFormChoice(t *testing.T) {
	for _, ref := range []feedback.FormRef{
		{Form: feedback.FormHygiene}, {Form: feedback.FormReview, ReviewID: "r1"}, {Form: feedback.FormSurvey, SurveyID: "s1"},
	} {
		if got := formRef(formValue(ref)); got != ref {
			t.Errorf("formRef(formValue(%+v)) = %+v", ref, got)
		}
	}
}

func TestClock(t *testing.T) {
	for d, want := range map[time.Duration]string{0: "0:00", 9*time.Minute + 5*time.Second: "9:05", 10 * time.Minute: "10:00"} {
		if got := clock(d); got != want {
			t.Errorf("clock(%v) = %q, want %q", d, got, want)
		}
	}
}

func TestRevokedText(t *testing.T) {
	if got := revokedText(2, 1); got != ": 2 posters revoked, 1 kiosk unpaired" {
		t.Errorf("revokedText(2, 1) = %q", got)
	}
	if got := revokedText(0, 0); got != "" {
		t.Errorf("revokedText(0, 0) = %q", got)
	}
}
