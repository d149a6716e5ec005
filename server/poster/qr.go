package poster

import (
	"bytes"
	"errors"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"strings"
	"sync"

	"rsc.io/qr"
)

const (
	// MinPNGSize is the smallest size, in pixels, that [QRPNG] draws.
	MinPNGSize = 64
	// MaxPNGSize is the largest size, in pixels, that [QRPNG] takes.
	MaxPNGSize = 2048
)

// quietZone is the white margin around a QR code, in modules, that the
// standard asks for so scanners can find the code.
const quietZone = 4

// ErrNoURL is returned by [QRPNG] and [PDF] when the URL is empty.
var ErrNoURL = errors.New("poster: empty URL")

// pngEncoder reuses its compressor across calls, which would otherwise
// allocate about a megabyte per image.
var pngEncoder = png.Encoder{BufferPool: new(bufferPool)}

// bufferPool is a [png.EncoderBufferPool] backed by a [sync.Pool].
type bufferPool sync.Pool

func (p *bufferPool) Get() *png.EncoderBuffer {
	b, _ := (*sync.Pool)(p).Get().(*png.EncoderBuffer)
	return b
}

func (p *bufferPool) Put(b *png.EncoderBuffer) { (*sync.Pool)(p).Put(b) }

// encode returns the QR code of url at error correction level M.
func encode(url string) (*qr.Code, error) {
	if strings.TrimSpace(url) == "" {
		return nil, ErrNoURL
	}
	c, err := qr.Encode(url, qr.M)
	if err != nil {
		return nil, fmt.Errorf("poster: encode %d bytes as QR code: %w", len(url), err)
	}
	return c, nil
}

// QRPNG returns a PNG of the QR code for url: black modules on white, with
// a quiet zone of four modules. Size is clamped to [MinPNGSize, MaxPNGSize];
// every module is a whole number of pixels, so the image is the smallest
// such square at least size pixels wide. It returns [ErrNoURL] if url is
// empty, and an error if url is too long for a QR code.
func QRPNG(url string, size int) ([]byte, error) {
	c, err := encode(url)
	if err != nil {
		return nil, err
	}
	var buf bytes.Buffer
	if err := pngEncoder.Encode(&buf, rasterize(c, size)); err != nil {
		return nil, fmt.Errorf("poster: encode PNG: %w", err)
	}
	return buf.Bytes(), nil
}

// rasterize draws c with its quiet zone, scale pixels to a module, into a
// two-colour image, which image/png writes with one bit per pixel.
func rasterize(c *qr.Code, size int) *image.Paletted {
	size = min(max(size, MinPNGSize), MaxPNGSize)
	modules := c.Size + 2*quietZone
	scale := (size + modules - 1) / modules
	side := modules * scale
	img := image.NewPaletted(image.Rect(0, 0, side, side), color.Palette{color.White, color.Black})
	row := make([]uint8, side)
	for y := range c.Size {
		clear(row)
		for x := range c.Size {
			if c.Black(x, y) {
				start := (quietZone + x) * scale
				for i := range scale {
					row[start+i] = 1
				}
			}
		}
		top := (quietZone + y) * scale
		for i := range scale {
			copy(img.Pix[(top+i)*img.Stride:], row)
		}
	}
	return img
}

// QRSVG returns an SVG of the QR code for url: black modules on white,
// with a quiet zone of four modules, as one path of whole modules (one
// rectangle per run of dark modules in a row) that scales to any size
// without blurring; width and height are size pixels, clamped as for
// [QRPNG]. It returns [ErrNoURL] if url is empty, and an error if url is
// too long for a QR code. The SVG holds nothing of url but the code.
func QRSVG(url string, size int) ([]byte, error) {
	c, err := encode(url)
	if err != nil {
		return nil, err
	}
	size = min(max(size, MinPNGSize), MaxPNGSize)
	modules := c.Size + 2*quietZone
	var b bytes.Buffer
	fmt.Fprintf(&b, `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 %d %d" width="%d" height="%d" shape-rendering="crispEdges">`,
		modules, modules, size, size)
	fmt.Fprintf(&b, `<rect width="%d" height="%d" fill="#fff"/><path fill="#000" d="`, modules, modules)
	for y := range c.Size {
		for x := 0; x < c.Size; x++ {
			if !c.Black(x, y) {
				continue
			}
			run := 1
			for x+run < c.Size && c.Black(x+run, y) {
				run++
			}
			fmt.Fprintf(&b, "M%d %dh%dv1h-%dz", quietZone+x, quietZone+y, run, run)
			x += run - 1
		}
	}
	b.WriteString(`"/></svg>`)
	return b.Bytes(), nil
}
