// Command precompress writes brotli (.br) and gzip (.gz) copies of files
// next to them, so that the server sends the WebAssembly compressed
// without compressing it on every request. It is pure Go, so a fresh
// machine needs no brotli binary. Usage:
//
//	go run ./server/cmd/precompress [-brotli 11] web/app.wasm
package main

import (
	"bytes"
	"compress/gzip"
	"flag"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/andybalholm/brotli"
)

func main() {
	quality := flag.Int("brotli", 11, "brotli quality, 0 (fast) to 11 (small)")
	flag.Parse()
	for _, path := range flag.Args() {
		if err := compress(path, *quality); err != nil {
			fmt.Fprintln(os.Stderr, "precompress:", err)
			os.Exit(1)
		}
	}
}

// compress writes path.br and path.gz and prints the three sizes.
func compress(path string, quality int) error {
	raw, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	start := time.Now()
	br, err := encode(raw, func(w io.Writer) io.WriteCloser { return brotli.NewWriterLevel(w, quality) })
	if err != nil {
		return err
	}
	gz, err := encode(raw, func(w io.Writer) io.WriteCloser {
		z, _ := gzip.NewWriterLevel(w, gzip.BestCompression)
		return z
	})
	if err != nil {
		return err
	}
	for ext, b := range map[string][]byte{".br": br, ".gz": gz} {
		if err := os.WriteFile(path+ext, b, 0o644); err != nil {
			return err
		}
	}
	fmt.Printf("%s: raw %d, gzip %d, brotli(q%d) %d bytes (%s)\n", path, len(raw), len(gz), quality, len(br),
		time.Since(start).Round(time.Millisecond))
	return nil
}

func encode(raw []byte, newWriter func(io.Writer) io.WriteCloser) ([]byte, error) {
	var buf bytes.Buffer
	w := newWriter(&buf)
	if _, err := w.Write(raw); err != nil {
		return nil, err
	}
	if err := w.Close(); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}
