package main

import (
	"context"
	"io"

	"github.com/coder/websocket"
)

// sock is a socket of a fan-out run with what it received. Only its
// reader goroutine touches it until the run has closed it.
type sock struct {
	c       *websocket.Conn
	tenant  int
	seen    bitset  // the submissions received, by index
	lat     []int64 // one latency per first receipt, in nanoseconds
	dups    int     // a submission received again
	foreign int     // a submission of another workspace
	other   int     // a message that names no submission of the run
	ended   int     // the close code when the server ended the socket during the run; 0 otherwise
}

// read reads messages until the socket closes, recording each.
func (k *sock) read(m *meter) {
	buf := make([]byte, 0, 1024)
	for {
		_, r, err := k.c.Reader(context.Background()) // no deadline: a cancellable context costs a timer per message
		if err == nil {
			buf, err = readAll(buf[:0], r)
		}
		if err != nil {
			if !m.closing.Load() {
				k.ended = int(websocket.CloseStatus(err)) // -1: the connection broke without a close frame
			}
			return
		}
		m.record(k, buf, m.now())
	}
}

// readAll appends what r holds to buf, reusing buf's room: io.ReadAll
// would allocate a slice per message.
func readAll(buf []byte, r io.Reader) ([]byte, error) {
	for {
		if len(buf) == cap(buf) {
			buf = append(buf, 0)[:len(buf)]
		}
		n, err := r.Read(buf[len(buf):cap(buf)])
		buf = buf[:len(buf)+n]
		if err == io.EOF {
			return buf, nil
		}
		if err != nil {
			return buf, err
		}
	}
}
