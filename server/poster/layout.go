package poster

// A4 portrait geometry, in millimetres.
const (
	pageWidth    = 210.0
	pageHeight   = 297.0
	marginSide   = 15.0
	marginTop    = 18.0
	marginBottom = 14.0
	contentWidth = pageWidth - 2*marginSide

	ptPerMM     = 72 / 25.4
	lineSpacing = 1.15 // line height as a multiple of the font size
)

// style says how a text block is set: in sizes from max down to min
// points, the largest at which it fits in lines lines; at min size, text
// beyond the last line is cut with an ellipsis.
type style struct {
	face     *face
	max, min float64 // font size in points
	lines    int
	gray     bool
	after    float64 // space below the block, in mm
}

var (
	headingStyle  = style{face: bold, max: 44, min: 22, lines: 3, after: 5}
	subtitleStyle = style{face: regular, max: 24, min: 14, lines: 3, after: 4}
	urlStyle      = style{face: regular, max: 12, min: 8, lines: 3, after: 3}
	ctaStyle      = style{face: bold, max: 18, min: 12, lines: 2, after: 6}
	footerStyle   = style{face: regular, max: 10, min: 7, lines: 2, gray: true}
)

// block is text fitted to the page width: its lines at a font size.
type block struct {
	style
	size  float64
	lines []string
}

// height returns the height the block takes on the page, with the space
// below it; an empty block takes none.
func (b block) height() float64 {
	if len(b.lines) == 0 {
		return 0
	}
	return float64(len(b.lines))*b.lineHeight() + b.after
}

// lineHeight returns the height of one line, in mm.
func (b block) lineHeight() float64 {
	return b.size * lineSpacing / ptPerMM
}

// totalHeight returns the height of blocks stacked one below the other.
func totalHeight(blocks ...block) float64 {
	var h float64
	for _, b := range blocks {
		h += b.height()
	}
	return h
}
