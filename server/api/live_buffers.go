package api

import (
	"bufio"
	"bytes"
	"io"
	"net"
	"net/http"
)

// The buffers of a live socket. The server only sends on it, messages
// of a few hundred bytes flushed one by one, and reads nothing but
// control frames of at most 131 bytes, so the 4 KiB that net/http hands
// over with a hijacked connection would be most of an idle socket's
// memory (see the idle benchmark in README).
const (
	liveReadBuffer  = 512
	liveWriteBuffer = 1024
)

// leanHijack is a ResponseWriter whose Hijack hands the WebSocket
// library small buffers instead of net/http's.
type leanHijack struct{ http.ResponseWriter }

// Unwrap returns the ResponseWriter it wraps (for http.ResponseController).
func (w leanHijack) Unwrap() http.ResponseWriter { return w.ResponseWriter }

// Hijack takes over the connection. What the client sent after the
// upgrade request, already in net/http's buffer, is moved into the new
// reader's buffer: the library reads on from the connection itself.
func (w leanHijack) Hijack() (net.Conn, *bufio.ReadWriter, error) {
	c, brw, err := http.NewResponseController(w.ResponseWriter).Hijack()
	if err != nil {
		return nil, nil, err
	}
	n := brw.Reader.Buffered()
	pending, _ := brw.Reader.Peek(n)
	br := bufio.NewReaderSize(io.MultiReader(bytes.NewReader(pending), c), max(liveReadBuffer, n))
	if _, err := br.Peek(n); err != nil { // one read of the bytes.Reader: the connection is not read
		c.Close()
		return nil, nil, err
	}
	return c, bufio.NewReadWriter(br, bufio.NewWriterSize(c, liveWriteBuffer)), nil
}
