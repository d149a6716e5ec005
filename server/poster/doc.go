// Package poster renders what a location prints to collect feedback: the
// QR code of a poster's URL as a PNG ([QRPNG]) and a printable A4 sheet as
// a PDF ([PDF]) with a heading, the form's title, a vector QR code, the URL
// to type by hand, a call to action and a footer.
//
// QR codes use error correction level M and a quiet zone of four modules.
// Text is set in the Go fonts (golang.org/x/image/font/gofont), which cover
// Latin, Greek and Cyrillic; a character they lack prints as U+FFFD instead
// of failing the render. Output depends only on the input, so a rendered
// poster can be cached and compared byte for byte.
package poster
