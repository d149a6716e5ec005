package poster

import (
	"errors"
	"fmt"
	"io"
	"strings"
	"time"

	"codeberg.org/go-pdf/fpdf"
	"rsc.io/qr"
)

// Sheet is the content of a printable poster.
type Sheet struct {
	Title        string // the heading, usually the location's name
	Subtitle     string // what the form asks, e.g. "Rate the cleanliness"
	CallToAction string // under the code; if empty, [CallToAction] of Language
	URL          string // encoded in the code and printed under it; required
	Footer       string // small print at the bottom of the page
	Language     string // the text's language tag, e.g. "de" or "fr-CH"

	// Created is the PDF's creation date. If it is zero, a fixed date is
	// used, so that equal sheets give identical bytes.
	Created time.Time
}

// fixedDate is the creation date of a [Sheet] that sets none.
var fixedDate = time.Date(2000, 1, 1, 0, 0, 0, 0, time.UTC)

// family is the name the Go fonts are registered under in the PDF.
const family = "go"

// PDF writes s to w as a one-page A4 portrait PDF: the title as a large
// heading, the subtitle, the URL's QR code drawn as vector rectangles, the
// URL in small print so it can be typed, the call to action, and the
// footer. Text that is too long shrinks, wraps, and is finally cut with an
// ellipsis. Equal sheets give identical bytes.
//
// PDF returns [ErrNoURL] if s.URL is empty, and an error if the URL is too
// long for a QR code or writing to w fails.
func PDF(w io.Writer, s Sheet) error {
	return render(w, []Sheet{s}, true)
}

// PDFs writes the sheets to w as one A4 PDF, a page per sheet in their
// order, each as [PDF] draws it, to print several posters at once; the
// document's metadata (title, dates, language) are the first sheet's.
// It returns an error if there is no sheet, or as [PDF] for any sheet.
func PDFs(w io.Writer, sheets []Sheet) error {
	if len(sheets) == 0 {
		return errors.New("poster: no sheet to print")
	}
	return render(w, sheets, true)
}

// render is [PDFs] with a switch for compressing the content streams,
// which tests turn off to read the drawing operators.
func render(w io.Writer, sheets []Sheet, compress bool) error {
	codes := make([]*qr.Code, len(sheets))
	for i, s := range sheets {
		c, err := encode(s.URL)
		if err != nil {
			return err
		}
		codes[i] = c
	}
	p := newDocument(sheets[0], compress)
	for i, s := range sheets {
		p.AddPage()
		drawSheet(p, s, codes[i])
	}
	if err := p.Output(w); err != nil {
		return fmt.Errorf("poster: write PDF: %w", err)
	}
	return nil
}

// drawSheet draws s, whose URL's code is code, on the current page.
func drawSheet(p *fpdf.Fpdf, s Sheet, code *qr.Code) {
	cta := s.CallToAction
	if strings.TrimSpace(cta) == "" {
		cta = CallToAction(s.Language)
	}
	top := []block{fit(p, headingStyle, s.Title), fit(p, subtitleStyle, s.Subtitle)}
	under := []block{fit(p, urlStyle, s.URL), fit(p, ctaStyle, cta)}
	footer := fit(p, footerStyle, s.Footer)

	y := drawBlocks(p, marginTop, top...)
	footerY := pageHeight - marginBottom - footer.height()
	drawBlocks(p, footerY, footer)
	room := footerY - y - totalHeight(under...)
	side := min(contentWidth, room)
	y += (room - side) / 2 // centre the code and its text between heading and footer
	drawCode(p, code, (pageWidth-side)/2, y, side)
	drawBlocks(p, y+side, under...)
}

// newDocument returns a document with the Go fonts loaded and no page
// yet, its metadata from s.
func newDocument(s Sheet, compress bool) *fpdf.Fpdf {
	p := fpdf.New("P", "mm", "A4", "")
	p.SetCompression(compress)
	p.SetCatalogSort(true)
	created := s.Created
	if created.IsZero() {
		created = fixedDate
	}
	p.SetCreationDate(created)
	p.SetModificationDate(created)
	p.SetTitle(regular.clean(s.Title), true) // fpdf mangles runes beyond U+FFFF
	p.SetSubject(regular.clean(s.Subtitle), true)
	p.SetCreator("feedback", false)
	if validLang(s.Language) {
		p.SetLang(s.Language)
	}
	p.SetAutoPageBreak(false, 0)
	p.SetMargins(marginSide, marginTop, marginSide)
	p.SetCellMargin(0)
	p.AddUTF8FontFromBytes(family, regular.style, regular.ttf)
	p.AddUTF8FontFromBytes(family, bold.style, bold.ttf)
	return p
}

// fit sets text in st at the largest size at which it fits the page width
// in st.lines lines, cutting it at the smallest size if it still does not.
func fit(p *fpdf.Fpdf, st style, text string) block {
	text = st.face.clean(text)
	if text == "" {
		return block{style: st}
	}
	size := st.max
	for {
		p.SetFont(family, st.face.style, size)
		lines := p.SplitText(text, contentWidth)
		if len(lines) <= st.lines {
			return block{style: st, size: size, lines: lines}
		}
		if size <= st.min {
			return block{style: st, size: size, lines: cut(p, lines, st.lines)}
		}
		size = max(size-2, st.min)
	}
}

// cut keeps the first n lines, ending the last with an ellipsis that fits
// the page width in the current font.
func cut(p *fpdf.Fpdf, lines []string, n int) []string {
	lines = lines[:n]
	last := []rune(lines[n-1])
	for len(last) > 0 && p.GetStringWidth(string(last)+"…") > contentWidth {
		last = last[:len(last)-1]
	}
	lines[n-1] = strings.TrimRight(string(last), " ") + "…"
	return lines
}

// drawBlocks draws blocks centred, one below the other, from y down, and
// returns the y below the last.
func drawBlocks(p *fpdf.Fpdf, y float64, blocks ...block) float64 {
	for _, b := range blocks {
		p.SetFont(family, b.face.style, b.size)
		p.SetTextColor(0, 0, 0)
		if b.gray {
			p.SetTextColor(90, 90, 90)
		}
		for i, line := range b.lines {
			p.SetXY(marginSide, y+float64(i)*b.lineHeight())
			p.CellFormat(contentWidth, b.lineHeight(), line, "", 0, "C", false, 0, "")
		}
		y += b.height()
	}
	return y
}

// drawCode draws c with its quiet zone in the square of the given side
// whose top left corner is (x, y): one filled rectangle per dark module.
func drawCode(p *fpdf.Fpdf, c *qr.Code, x, y, side float64) {
	m := side / float64(c.Size+2*quietZone)
	x += quietZone * m
	y += quietZone * m
	p.SetFillColor(0, 0, 0)
	for row := range c.Size {
		for col := range c.Size {
			if c.Black(col, row) {
				p.Rect(x+float64(col)*m, y+float64(row)*m, m, m, "F")
			}
		}
	}
}
