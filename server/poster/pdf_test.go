package poster_test

import (
	"bytes"
	"errors"
	"regexp"
	"strings"
	"testing"
	"time"
	"unicode/utf16"

	"github.com/google/go-cmp/cmp"
	"rsc.io/qr"

	"github.com/feedbackhq/feedback/server/poster"
)

// sheet is a typical poster.
var sheet = poster.Sheet{
	Title:    "Café Zürich – Hauptbahnhof",
	Subtitle: "Wie sauber sind die Toiletten?",
	URL:      "https://fb.example.com/q/AbC123xyz",
	Footer:   "Feedback Inc. · fb.example.com/privacy",
	Language: "de",
}

// render returns s as an uncompressed PDF, failing the test on error.
func render(t testing.TB, s poster.Sheet) []byte {
	t.Helper()
	var buf bytes.Buffer
	if err := poster.PDFUncompressed(&buf, s); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// rect matches the operator that fills a rectangle, as fpdf writes it.
var rect = regexp.MustCompile(`(?m)^-?[0-9.]+ -?[0-9.]+ -?[0-9.]+ -?[0-9.]+ re f$`)

// darkModules returns the number of dark modules in url's QR code.
func darkModules(t testing.TB, url string) int {
	t.Helper()
	code, err := qr.Encode(url, qr.M)
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for y := range code.Size {
		for x := range code.Size {
			if code.Black(x, y) {
				n++
			}
		}
	}
	return n
}

// shows reports whether pdf draws text with the line s, which fpdf writes
// as an escaped UTF-16BE string.
func shows(pdf []byte, s string) bool {
	esc := strings.NewReplacer(`\`, `\\`, "(", `\(`, ")", `\)`, "\r", `\r`).Replace(string(utf16BE(s)))
	return bytes.Contains(pdf, []byte("("+esc+")Tj"))
}

func TestPDF(t *testing.T) {
	tests := []struct {
		name  string
		sheet poster.Sheet
		lines []string // lines the page must show
	}{
		{"German", sheet, []string{"Café Zürich –", "Hauptbahnhof", "Wie sauber sind die Toiletten?", sheet.URL, poster.CallToAction("de"), sheet.Footer}},
		{"URLOnly", poster.Sheet{URL: "https://x.example/q/1"}, []string{"https://x.example/q/1", poster.CallToAction("en")}},
		{"OwnCallToAction", poster.Sheet{URL: "https://x.example/q/1", CallToAction: "Dites-nous (tout) \\ ici", Language: "fr"}, []string{"Dites-nous (tout) \\ ici"}},
		{"Scripts", poster.Sheet{
			Title:    "Ταβέρνα Αθήνα",
			Subtitle: "Ресторан «Москва»",
			URL:      "https://x.example/q/2",
			Footer:   "Señor Niño · Crêperie · Ærøskøbing",
		}, []string{"Ταβέρνα Αθήνα", "Ресторан «Москва»", "Señor Niño · Crêperie · Ærøskøbing"}},
		{"MissingGlyphs", poster.Sheet{Title: "東京 Café 🍣", Subtitle: "a\x00b\u200bc\n\td", URL: "https://x.example/q/3"}, []string{"\uFFFD\uFFFD Café \uFFFD", "abc d"}},
		{"InvalidUTF8", poster.Sheet{Title: "ok\xffok", URL: "https://x.example/q/4"}, []string{"ok\uFFFDok"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			pdf := render(t, tt.sheet)
			checkEnvelope(t, pdf)
			if got, want := len(rect.FindAll(pdf, -1)), darkModules(t, tt.sheet.URL); got != want {
				t.Errorf("PDF fills %d rectangles, want one per dark module: %d", got, want)
			}
			for _, line := range tt.lines {
				if !shows(pdf, line) {
					t.Errorf("PDF does not show the line %q", line)
				}
			}
		})
	}
}

// checkEnvelope checks that pdf starts and ends as a PDF file does.
func checkEnvelope(t *testing.T, pdf []byte) {
	t.Helper()
	if !bytes.HasPrefix(pdf, []byte("%PDF-")) {
		t.Errorf("PDF starts with %q, want %%PDF-", pdf[:min(len(pdf), 8)])
	}
	if !bytes.HasSuffix(bytes.TrimSpace(pdf), []byte("%%EOF")) {
		t.Errorf("PDF ends with %q, want %%%%EOF", pdf[max(0, len(pdf)-8):])
	}
}

func TestPDFDeterministic(t *testing.T) {
	var first, again bytes.Buffer
	if err := poster.PDF(&first, sheet); err != nil {
		t.Fatal(err)
	}
	for range 5 { // maps iterate in a new order each time
		again.Reset()
		if err := poster.PDF(&again, sheet); err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(first.Bytes(), again.Bytes()) {
			t.Fatal("two renders of the same sheet differ")
		}
	}
	checkEnvelope(t, first.Bytes())
	if !bytes.Contains(render(t, sheet), []byte("/CreationDate (D:20000101000000")) {
		t.Error("PDF of a sheet without Created does not carry the fixed date")
	}

	dated := sheet
	dated.Created = time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	pdf := render(t, dated)
	if !bytes.Contains(pdf, []byte("/CreationDate (D:20260301120000")) {
		t.Error("PDF does not carry the Created date")
	}
	if bytes.Equal(pdf, render(t, sheet)) {
		t.Error("sheets created at different dates give the same PDF")
	}
}

func TestPDFConcurrent(t *testing.T) {
	want := render(t, sheet)
	errs := make(chan error, 4)
	for range cap(errs) {
		go func() {
			var buf bytes.Buffer
			err := poster.PDFUncompressed(&buf, sheet)
			if err == nil && !bytes.Equal(buf.Bytes(), want) {
				err = errors.New("concurrent render differs")
			}
			errs <- err
		}()
	}
	for range cap(errs) {
		if err := <-errs; err != nil {
			t.Error(err)
		}
	}
}

func TestPDFLongText(t *testing.T) {
	long := strings.Repeat("Großraumbüro Ελλάδα Москва niño ", 16)[:500]
	s := poster.Sheet{Title: long, Subtitle: long, CallToAction: long, Footer: long, URL: "https://x.example/q/" + strings.Repeat("a", 300)}
	pdf := render(t, s)
	checkEnvelope(t, pdf)
	if got, want := len(rect.FindAll(pdf, -1)), darkModules(t, s.URL); got != want {
		t.Errorf("PDF fills %d rectangles, want %d", got, want)
	}
	if got := bytes.Count(pdf, []byte(")Tj")); got > 3+3+3+2+2 {
		t.Errorf("PDF shows %d lines of text, want each block cut to its line limit", got)
	}
	if !bytes.Contains(pdf, utf16BE("…")) {
		t.Error("cut text does not end with an ellipsis")
	}
	if !bytes.HasSuffix(bytes.TrimSpace(render(t, poster.Sheet{Title: strings.Repeat("W", 500), URL: "u"})), []byte("%%EOF")) {
		t.Error("a title without spaces does not render")
	}
}

// utf16BE returns s in UTF-16BE, as fpdf writes text.
func utf16BE(s string) []byte {
	var b []byte
	for _, u := range utf16.Encode([]rune(s)) {
		b = append(b, byte(u>>8), byte(u))
	}
	return b
}

func TestPDFErrors(t *testing.T) {
	tests := []struct {
		name  string
		url   string
		noURL bool
	}{
		{"ErrNoURL", "", true},
		{"ErrNoURLBlank", "  \n", true},
		{"TooLong", strings.Repeat("x", 4000), false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var buf bytes.Buffer
			err := poster.PDF(&buf, poster.Sheet{Title: "T", URL: tt.url})
			if err == nil || errors.Is(err, poster.ErrNoURL) != tt.noURL {
				t.Errorf("PDF error = %v, want ErrNoURL: %v", err, tt.noURL)
			}
			if buf.Len() != 0 {
				t.Errorf("PDF wrote %d bytes before failing", buf.Len())
			}
		})
	}
}

func TestPDFLanguage(t *testing.T) {
	for lang, want := range map[string]string{"de-CH": "/Lang (de-CH)", "fr": "/Lang (fr)", "x) /JS (": "", "": ""} {
		pdf := render(t, poster.Sheet{URL: "https://x.example/q/1", Language: lang})
		got := string(regexp.MustCompile(`/Lang \([^\n]*\)`).Find(pdf))
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("Language %q: /Lang entry (-want +got):\n%s", lang, diff)
		}
	}
}

func FuzzPDF(f *testing.F) {
	f.Add("Café", "Rate", "https://x.example/q/1", "de")
	f.Add("\xff\x00)(\\", "\u202e", "\t", "x) (")
	f.Add(strings.Repeat("ẞ", 300), "", "🍣", "el")
	f.Fuzz(func(t *testing.T, title, subtitle, url, lang string) {
		var buf bytes.Buffer
		err := poster.PDF(&buf, poster.Sheet{Title: title, Subtitle: subtitle, URL: url, Footer: title, Language: lang})
		if err != nil {
			return // empty or too long URL
		}
		checkEnvelope(t, buf.Bytes())
	})
}

func BenchmarkPDF(b *testing.B) {
	var buf bytes.Buffer
	for b.Loop() {
		buf.Reset()
		if err := poster.PDF(&buf, sheet); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(buf.Len()), "bytes/pdf")
}

// TestPDFs: several sheets make one document of as many pages, each with
// its own code and title; none is an error.
func TestPDFs(t *testing.T) {
	second := sheet
	second.Title, second.URL = "Lobby", "https://fb.example.com/q/Other456"
	var buf bytes.Buffer
	if err := poster.PDFsUncompressed(&buf, []poster.Sheet{sheet, second}); err != nil {
		t.Fatal(err)
	}
	pdf := buf.Bytes()
	if n := bytes.Count(pdf, []byte("/Type /Page\n")) + bytes.Count(pdf, []byte("/Type /Page ")); n != 2 {
		t.Errorf("%d pages, want 2", n)
	}
	if got, want := len(rect.FindAll(pdf, -1)), darkModules(t, sheet.URL)+darkModules(t, second.URL); got != want {
		t.Errorf("%d filled rectangles, want the dark modules of both codes, %d", got, want)
	}
	if !shows(pdf, "Lobby") || !shows(pdf, sheet.URL) || !shows(pdf, second.URL) {
		t.Error("a page lacks its title or its URL")
	}
	if err := poster.PDFs(&buf, nil); err == nil {
		t.Error("no sheet gave no error")
	}
}
