package i18n

import "testing"

func TestCatalogueComplete(t *testing.T) {
	for _, lang := range Languages {
		for key := range catalogue[Default] {
			if _, ok := catalogue[lang][key]; !ok {
				t.Errorf("%s lacks %q", lang, key)
			}
		}
		for key := range catalogue[lang] {
			if _, ok := catalogue[Default][key]; !ok {
				t.Errorf("%s has %q, which English lacks", lang, key)
			}
		}
	}
}

func TestMatch(t *testing.T) {
	tests := []struct{ name, header, want string }{
		{"empty", "", "en"},
		{"exact", "de", "de"},
		{"region", "fr-CH, en;q=0.5", "fr"},
		{"quality order", "en;q=0.2, es;q=0.9", "es"},
		{"unsupported then supported", "ja, de;q=0.1", "de"},
		{"zero quality", "de;q=0, fr;q=0.1", "fr"},
		{"garbage", ";;;,,q=", "en"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := Match(tt.header); got != tt.want {
				t.Errorf("Match(%q) = %q; want %q", tt.header, got, tt.want)
			}
		})
	}
}

func TestT(t *testing.T) {
	if got := T("de-AT", "submit"); got != "Feedback senden" {
		t.Errorf("T(de-AT, submit) = %q", got)
	}
	if got := T("ja", "submit"); got != "Send feedback" {
		t.Errorf("T(ja, submit) = %q; want the English fallback", got)
	}
	if got := T("en", "no_such_key"); got != "no_such_key" {
		t.Errorf("T(en, no_such_key) = %q; want the key", got)
	}
}

func TestNormalize(t *testing.T) {
	for in, want := range map[string]string{"de": "de", "DE-ch": "de", "de-!!": "de", "fr_CA": "", "ja": "", "": ""} {
		got, ok := Normalize(in)
		if (want == "") == ok || (ok && got != want) {
			t.Errorf("Normalize(%q) = %q, %v; want %q", in, got, ok, want)
		}
	}
}
