package poster_test

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/feedbackhq/feedback/server/poster"
)

func TestCallToAction(t *testing.T) {
	en := "Scan to give feedback — no app, no account"
	tests := []struct {
		lang, want string
	}{
		{"en", en},
		{"", en},
		{"xx", en},
		{"de", "Scannen und Feedback geben – ohne App, ohne Konto"},
		{"de-CH", "Scannen und Feedback geben – ohne App, ohne Konto"},
		{"FR_ca", "Scannez pour donner votre avis — sans appli, sans compte"},
		{" es-419 ", "Escanea para opinar: sin app, sin cuenta"},
	}
	for _, tt := range tests {
		if got := poster.CallToAction(tt.lang); got != tt.want {
			t.Errorf("CallToAction(%q) = %q, want %q", tt.lang, got, tt.want)
		}
	}
	for _, lang := range poster.Languages() {
		if poster.CallToAction(lang) == en && lang != "en" {
			t.Errorf("Languages lists %q, which has no text of its own", lang)
		}
	}
	if diff := cmp.Diff([]string{"en", "de", "fr", "es"}, poster.Languages()); diff != "" {
		t.Errorf("Languages (-want +got):\n%s", diff)
	}
}
