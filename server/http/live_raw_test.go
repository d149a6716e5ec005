package http_test

import (
	"bufio"
	"encoding/binary"
	"io"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"
)

// TestLivePipelinedPing: a client that sends a ping in the same packet
// as its upgrade request is answered with its pong: what net/http read
// past the request is not lost when the socket takes smaller buffers.
func TestLivePipelinedPing(t *testing.T) {
	eachStore(t, func(t *testing.T, ts *TestServer) {
		f := ts.newFixture(t, "Acme")
		conn, err := net.DialTimeout("tcp", strings.TrimPrefix(ts.URL, "http://"), 5*time.Second)
		if err != nil {
			t.Fatal(err)
		}
		defer conn.Close()
		_ = conn.SetDeadline(time.Now().Add(10 * time.Second))
		upgrade := "GET /api/v1/live HTTP/1.1\r\nHost: " + strings.TrimPrefix(ts.URL, "http://") +
			"\r\nConnection: Upgrade\r\nUpgrade: websocket\r\nSec-WebSocket-Version: 13" +
			"\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nAuthorization: Bearer " + f.Token + "\r\n\r\n"
		if _, err := conn.Write(append([]byte(upgrade), maskedFrame(0x9, "are you there")...)); err != nil {
			t.Fatal(err)
		}
		br := bufio.NewReader(conn)
		res, err := http.ReadResponse(br, nil)
		if err != nil || res.StatusCode != http.StatusSwitchingProtocols {
			t.Fatalf("upgrade answered %v, %v", res, err)
		}
		for range 3 { // live.ready and the pong, in either order
			op, payload := readFrame(t, br)
			if op == 0xA {
				if payload != "are you there" {
					t.Fatalf("pong %q, want the ping's payload", payload)
				}
				return
			}
		}
		t.Fatal("no pong for the ping sent with the upgrade request")
	})
}

// maskedFrame returns a client's final frame of opcode op with a short
// payload.
func maskedFrame(op byte, payload string) []byte {
	key := [4]byte{1, 2, 3, 4}
	b := []byte{0x80 | op, 0x80 | byte(len(payload)), key[0], key[1], key[2], key[3]}
	for i := range len(payload) {
		b = append(b, payload[i]^key[i%4])
	}
	return b
}

// readFrame reads one unmasked server frame and returns its opcode and
// payload.
func readFrame(t *testing.T, r *bufio.Reader) (byte, string) {
	t.Helper()
	var h [2]byte
	if _, err := io.ReadFull(r, h[:]); err != nil {
		t.Fatalf("read a frame: %v", err)
	}
	n := uint64(h[1] & 0x7f)
	switch n {
	case 126:
		var ext [2]byte
		_, _ = io.ReadFull(r, ext[:])
		n = uint64(binary.BigEndian.Uint16(ext[:]))
	case 127:
		var ext [8]byte
		_, _ = io.ReadFull(r, ext[:])
		n = binary.BigEndian.Uint64(ext[:])
	}
	p := make([]byte, n)
	if _, err := io.ReadFull(r, p); err != nil {
		t.Fatalf("read a frame's payload: %v", err)
	}
	return h[0] & 0x0f, string(p)
}
