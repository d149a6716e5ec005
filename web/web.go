// Package web holds the static assets of the PWA: styles and icons, which
// the server embeds and serves under /web/. The WebAssembly build output
// (app.wasm and its precompressed .br and .gz) also lands in this
// directory but is not embedded: it is a build output, read from disk.
package web

import "embed"

// Assets are the embedded static files, served under /web/.
//
//go:embed style.css icon.svg icon-192.png icon-512.png icon-maskable.png
var Assets embed.FS
