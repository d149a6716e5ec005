package poster

import (
	"strings"
	"unicode"

	"golang.org/x/image/font/gofont/gobold"
	"golang.org/x/image/font/gofont/goregular"
	"golang.org/x/image/font/sfnt"
)

// face is one of the fonts the poster is set in.
type face struct {
	style string // the fpdf style that selects it: "" or "B"
	ttf   []byte
	font  *sfnt.Font // to look up which characters it has
}

var (
	regular = mustParse("", goregular.TTF)
	bold    = mustParse("B", gobold.TTF)
)

// mustParse parses a font built into the binary, so an error is a bug.
func mustParse(style string, ttf []byte) *face {
	f, err := sfnt.Parse(ttf)
	if err != nil {
		panic("poster: parse Go font: " + err.Error())
	}
	return &face{style: style, ttf: ttf, font: f}
}

// clean returns s ready to set in f: runs of white space become one space,
// invisible control and format characters go, and characters that f has
// no glyph for become U+FFFD, which it has. Invalid UTF-8 also becomes
// U+FFFD.
func (f *face) clean(s string) string {
	var buf sfnt.Buffer
	return strings.Map(func(r rune) rune {
		switch {
		case unicode.In(r, unicode.Cc, unicode.Cf):
			return -1
		case !f.has(&buf, r):
			return unicode.ReplacementChar
		}
		return r
	}, strings.Join(strings.Fields(s), " "))
}

// has reports whether f has a glyph for r.
func (f *face) has(buf *sfnt.Buffer, r rune) bool {
	i, err := f.font.GlyphIndex(buf, r)
	return err == nil && i != 0
}

// validLang reports whether lang is safe to write as the PDF's /Lang: a
// short tag of letters, digits and hyphens.
func validLang(lang string) bool {
	if lang == "" || len(lang) > 35 {
		return false
	}
	for _, r := range lang {
		if r != '-' && (r > unicode.MaxASCII || !unicode.IsLetter(r) && !unicode.IsDigit(r)) {
			return false
		}
	}
	return true
}
