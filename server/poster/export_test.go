package poster

import "io"

// PDFUncompressed is [PDF] with uncompressed content streams, so that
// tests can read the drawing operators.
func PDFUncompressed(w io.Writer, s Sheet) error {
	return render(w, []Sheet{s}, false)
}

// PDFsUncompressed is [PDFs] with uncompressed content streams.
func PDFsUncompressed(w io.Writer, sheets []Sheet) error {
	return render(w, sheets, false)
}
