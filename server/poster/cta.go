package poster

import "strings"

// callsToAction holds the default call to action per language.
var callsToAction = map[string]string{
	"en": "Scan to give feedback — no app, no account",
	"de": "Scannen und Feedback geben – ohne App, ohne Konto",
	"fr": "Scannez pour donner votre avis — sans appli, sans compte",
	"es": "Escanea para opinar: sin app, sin cuenta",
}

// Languages returns the languages that [CallToAction] has a text for, the
// default first, for matching against an Accept-Language header.
func Languages() []string {
	return []string{"en", "de", "fr", "es"}
}

// CallToAction returns the default call to action in lang, a language tag
// such as "de" or "fr-CH" whose region is ignored. It returns the English
// text for a language it does not know.
func CallToAction(lang string) string {
	base, _, _ := strings.Cut(lang, "-")
	base, _, _ = strings.Cut(base, "_")
	if s, ok := callsToAction[strings.ToLower(strings.TrimSpace(base))]; ok {
		return s
	}
	return callsToAction["en"]
}
