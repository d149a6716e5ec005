package feedback

import (
	"crypto/rand"
	"encoding/binary"
	"encoding/hex"
	"time"
)

// NewID returns a new UUIDv7 string (RFC 9562): 48 bits of Unix
// milliseconds followed by random bits, so ids sort by creation time.
func NewID() string {
	return NewIDAt(time.Now())
}

// NewIDAt returns a UUIDv7 string whose timestamp is t.
func NewIDAt(t time.Time) string {
	var u [16]byte
	_, _ = rand.Read(u[6:]) // crypto/rand.Read never fails (Go >= 1.24)
	ms := uint64(t.UnixMilli())
	binary.BigEndian.PutUint16(u[0:2], uint16(ms>>32))
	binary.BigEndian.PutUint32(u[2:6], uint32(ms))
	u[6] = u[6]&0x0f | 0x70 // version 7
	u[8] = u[8]&0x3f | 0x80 // RFC 9562 variant
	return formatUUID(u)
}

func formatUUID(u [16]byte) string {
	var b [36]byte
	hex.Encode(b[0:8], u[0:4])
	b[8] = '-'
	hex.Encode(b[9:13], u[4:6])
	b[13] = '-'
	hex.Encode(b[14:18], u[6:8])
	b[18] = '-'
	hex.Encode(b[19:23], u[8:10])
	b[23] = '-'
	hex.Encode(b[24:], u[10:])
	return string(b[:])
}

// ParseUUID reports whether s is a UUID in the canonical 8-4-4-4-12
// hexadecimal form (any version, either case) and returns it in lower case.
func ParseUUID(s string) (string, bool) {
	if len(s) != 36 {
		return "", false
	}
	var u [16]byte
	j := 0
	for i := 0; i < 36; i += 2 {
		switch i {
		case 8, 13, 18, 23:
			if s[i] != '-' {
				return "", false
			}
			i--
			continue
		}
		hi, ok1 := fromHex(s[i])
		lo, ok2 := fromHex(s[i+1])
		if !ok1 || !ok2 {
			return "", false
		}
		u[j] = hi<<4 | lo
		j++
	}
	return formatUUID(u), true
}

// UUIDBytes returns the 16 bytes of a canonical UUID string, or false.
func UUIDBytes(s string) ([16]byte, bool) {
	var u [16]byte
	c, ok := ParseUUID(s)
	if !ok {
		return u, false
	}
	_, err := hex.Decode(u[:], []byte(c[0:8]+c[9:13]+c[14:18]+c[19:23]+c[24:]))
	return u, err == nil
}

// UUIDString formats 16 bytes as a canonical lower-case UUID string.
func UUIDString(u [16]byte) string { return formatUUID(u) }

func fromHex(c byte) (byte, bool) {
	switch {
	case '0' <= c && c <= '9':
		return c - '0', true
	case 'a' <= c && c <= 'f':
		return c - 'a' + 10, true
	case 'A' <= c && c <= 'F':
		return c - 'A' + 10, true
	}
	return 0, false
}
