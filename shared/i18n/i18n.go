// Package i18n is the one catalogue of user-facing strings of the visitor
// and kiosk pages, in English, German, French and Spanish, and the
// language negotiation that picks one. It imports only the standard
// library, so the server's prerendered pages and the browser app share it.
package i18n

import (
	"fmt"
	"sort"
	"strconv"
	"strings"
)

// Languages lists the supported languages, the default first.
var Languages = []string{"en", "de", "fr", "es"}

// names are the languages' names in themselves, for the switcher.
var names = map[string]string{"en": "English", "de": "Deutsch", "fr": "Français", "es": "Español"}

// Name returns the name of lang in lang itself.
func Name(lang string) string { return names[base(lang)] }

// Default is the language used when nothing better matches.
const Default = "en"

// Tf formats the text for key in lang with args (fmt verbs).
func Tf(lang, key string, args ...any) string { return fmt.Sprintf(T(lang, key), args...) }

// T returns the text for key in lang, falling back to English and then
// to the key itself, so a missing translation is visible but harmless.
func T(lang, key string) string {
	if s, ok := catalogue[base(lang)][key]; ok {
		return s
	}
	if s, ok := catalogue[Default][key]; ok {
		return s
	}
	return key
}

// Supported reports whether lang (or its base language) is in the catalogue.
func Supported(lang string) bool {
	_, ok := catalogue[base(lang)]
	return ok
}

// Normalize returns the catalogue language for lang ("de" for "de-CH"),
// or false when lang's base language is not in the catalogue.
func Normalize(lang string) (string, bool) {
	b := base(lang)
	_, ok := catalogue[b]
	return b, ok
}

// Match picks the best supported language for an Accept-Language header.
func Match(acceptLanguage string) string {
	type pref struct {
		lang string
		q    float64
	}
	var prefs []pref
	for _, part := range strings.Split(acceptLanguage, ",") {
		tag, params, _ := strings.Cut(strings.TrimSpace(part), ";")
		q := 1.0
		if v, ok := strings.CutPrefix(strings.TrimSpace(params), "q="); ok {
			if f, err := strconv.ParseFloat(v, 64); err == nil {
				q = f
			}
		}
		if tag != "" && q > 0 {
			prefs = append(prefs, pref{strings.ToLower(tag), q})
		}
	}
	sort.SliceStable(prefs, func(i, j int) bool { return prefs[i].q > prefs[j].q })
	for _, p := range prefs {
		if Supported(p.lang) {
			return base(p.lang)
		}
	}
	return Default
}

func base(lang string) string {
	b, _, _ := strings.Cut(strings.ToLower(lang), "-")
	return b
}
