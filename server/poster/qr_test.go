package poster_test

import (
	"bytes"
	"encoding/xml"
	"errors"
	"image"
	"image/color"
	"image/png"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"rsc.io/qr"

	"github.com/feedbackhq/feedback/server/poster"
)

func TestQRPNG(t *testing.T) {
	tests := []struct {
		name string
		url  string
		size int
		want int // the size after clamping
	}{
		{"Typical", "https://fb.example.com/q/AbC123xyz", 512, 512},
		{"TooSmall", "https://fb.example.com/q/AbC123xyz", 0, poster.MinPNGSize},
		{"Negative", "https://fb.example.com/q/AbC123xyz", -5, poster.MinPNGSize},
		{"TooLarge", "https://fb.example.com/q/AbC123xyz", 1 << 20, poster.MaxPNGSize},
		{"Uppercase", "HTTPS://FB.EXAMPLE.COM/Q/ABC123", 300, 300},
		{"Long", "https://fb.example.com/q/" + strings.Repeat("x", 400), 256, 256},
		{"Unicode", "https://fb.example.com/q/Zürich?ñ=Ω", 128, 128},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b, err := poster.QRPNG(tt.url, tt.size)
			if err != nil {
				t.Fatal(err)
			}
			img, err := png.Decode(bytes.NewReader(b))
			if err != nil {
				t.Fatal(err)
			}
			checkQRImage(t, img, tt.url, tt.want)
		})
	}
}

// checkQRImage checks that img is the level M QR code of url with a quiet
// zone of four modules: square, made of whole-pixel modules, the smallest
// such square at least size pixels wide, and every pixel pure black or
// white as the module it belongs to.
func checkQRImage(t *testing.T, img image.Image, url string, size int) {
	t.Helper()
	code, err := qr.Encode(url, qr.M)
	if err != nil {
		t.Fatal(err)
	}
	b := img.Bounds()
	modules := code.Size + 8
	scale := b.Dx() / modules
	if b.Dx() != b.Dy() || b.Dx() != modules*scale || (scale-1)*modules >= size || size > b.Dx() {
		t.Fatalf("image is %v for %d modules; want the smallest square of whole modules at least %d wide", b, modules, size)
	}
	black := blackIndex(t, img)
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			got := black(x, y)
			want := code.Black(x/scale-4, y/scale-4) // Black is false outside the code
			if got != want {
				t.Fatalf("pixel (%d, %d) of module (%d, %d): black = %v, want %v", x, y, x/scale-4, y/scale-4, got, want)
			}
		}
	}
}

// blackIndex returns a func reporting whether the pixel at (x, y) of img
// is black, after checking that img has only pure black and white colours.
func blackIndex(t *testing.T, img image.Image) func(x, y int) bool {
	t.Helper()
	p, ok := img.(*image.Paletted)
	if !ok {
		t.Fatalf("image is a %T, want a two-colour *image.Paletted", img)
	}
	if len(p.Palette) > 2 {
		t.Fatalf("palette has %d colours, want 2", len(p.Palette))
	}
	isBlack := make([]bool, len(p.Palette))
	for i, c := range p.Palette {
		isBlack[i] = colourIsBlack(t, c)
	}
	return func(x, y int) bool { return isBlack[p.ColorIndexAt(x, y)] }
}

// colourIsBlack reports whether c is pure black, and fails the test unless
// c is pure black or pure white.
func colourIsBlack(t *testing.T, c color.Color) bool {
	t.Helper()
	switch r, g, b, a := c.RGBA(); {
	case r == 0 && g == 0 && b == 0 && a == 0xffff:
		return true
	case r == 0xffff && g == 0xffff && b == 0xffff && a == 0xffff:
		return false
	}
	t.Fatalf("colour %v is neither black nor white", c)
	return false
}

func TestQRPNGErrors(t *testing.T) {
	if _, err := poster.QRPNG("", 512); !errors.Is(err, poster.ErrNoURL) {
		t.Errorf("QRPNG(\"\") error = %v, want ErrNoURL", err)
	}
	if _, err := poster.QRPNG(" \t", 512); !errors.Is(err, poster.ErrNoURL) {
		t.Errorf("QRPNG(blank) error = %v, want ErrNoURL", err)
	}
	if _, err := poster.QRPNG(strings.Repeat("x", 4000), 512); err == nil || errors.Is(err, poster.ErrNoURL) {
		t.Errorf("QRPNG(4000 bytes) error = %v, want too long", err)
	}
}

func FuzzQRPNG(f *testing.F) {
	f.Add("https://fb.example.com/q/AbC123xyz", 512)
	f.Add("\x00\xff", 1)
	f.Add("日本語", 4096)
	f.Fuzz(func(t *testing.T, url string, size int) {
		b, err := poster.QRPNG(url, size)
		if err != nil {
			return // empty or too long
		}
		img, err := png.Decode(bytes.NewReader(b))
		if err != nil {
			t.Fatal(err)
		}
		checkQRImage(t, img, url, min(max(size, poster.MinPNGSize), poster.MaxPNGSize))
	})
}

func BenchmarkQRPNG(b *testing.B) {
	for b.Loop() {
		if _, err := poster.QRPNG("https://fb.example.com/q/AbC123xyz", 512); err != nil {
			b.Fatal(err)
		}
	}
}

// TestQRSVG: the SVG is well-formed XML of the given size whose path
// covers exactly the code's dark modules, shifted by the quiet zone.
func TestQRSVG(t *testing.T) {
	for _, url := range []string{"https://fb.example.com/q/AbC123xyz", "https://fb.example.com/q/" + strings.Repeat("x", 400)} {
		b, err := poster.QRSVG(url, 300)
		if err != nil {
			t.Fatal(err)
		}
		var doc struct {
			Width string `xml:"width,attr"`
			Path  struct {
				D string `xml:"d,attr"`
			} `xml:"path"`
		}
		if err := xml.Unmarshal(b, &doc); err != nil || doc.Width != "300" {
			t.Fatalf("%s: width %q, %v", b, doc.Width, err)
		}
		code, _ := qr.Encode(url, qr.M)
		dark := map[[2]int]bool{}
		for _, m := range regexp.MustCompile(`M(\d+) (\d+)h(\d+)v1h-(\d+)z`).FindAllStringSubmatch(doc.Path.D, -1) {
			x, y, n := atoi(t, m[1]), atoi(t, m[2]), atoi(t, m[3])
			for i := range n {
				dark[[2]int{x + i - 4, y - 4}] = true
			}
		}
		count := 0
		for y := range code.Size {
			for x := range code.Size {
				if code.Black(x, y) != dark[[2]int{x, y}] {
					t.Fatalf("module %d,%d: dark %v in the SVG, %v in the code", x, y, dark[[2]int{x, y}], code.Black(x, y))
				}
				if code.Black(x, y) {
					count++
				}
			}
		}
		if count != len(dark) {
			t.Errorf("the SVG darkens %d modules, the code has %d", len(dark), count)
		}
	}
	if _, err := poster.QRSVG(" ", 300); !errors.Is(err, poster.ErrNoURL) {
		t.Errorf("an empty URL: %v", err)
	}
}

func atoi(t *testing.T, s string) int {
	t.Helper()
	n, err := strconv.Atoi(s)
	if err != nil {
		t.Fatal(err)
	}
	return n
}
