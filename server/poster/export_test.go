package poster

import "io"

// PDFUncompressed is [PDF] with uncompressed content streams, so that
// tests can read the drawing operators.
func PDFUncompressed(w io.Writer, s Sheet) error {
	return render(w, s, false)
}
