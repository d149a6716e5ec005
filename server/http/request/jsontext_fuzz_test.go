package request

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
	"unicode/utf8"
)

// FuzzCheckJSONText checks CheckJSONText against encoding/json itself:
// for a JSON text, it must refuse exactly when decoding would put a
// U+FFFD into a string that the text did not hold, literally or as the
// escape \ufffd.
func FuzzCheckJSONText(f *testing.F) {
	for _, s := range []string{`{"name":"ok"}`, "{\"name\":\"\xff\"}", `{"a":["\ud800"]}`, `{"a":"\ud83d\ude00"}`,
		`{"a":"\\ud800"}`, `{"\udc00":1}`, "{\"a\":\"\uFFFD\"}", "{\"\\ufffd\":1,\"\xff\":2}", `["\ufffd", "\uD83D\u0041"]`, `"caf\u00e9"`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		var v any
		if json.Unmarshal(body, &v) != nil {
			return // not JSON: the decoder refuses it either way
		}
		repaired := decodedFFFD(body) != sourceFFFD(body)
		if refused := CheckJSONText(body) != nil; refused != repaired {
			t.Errorf("CheckJSONText(%q) refused = %v; decoding replaces characters: %v", body, refused, repaired)
		}
	})
}

// decodedFFFD counts the U+FFFD in the strings that decoding body
// yields, keys included (every occurrence: a map would merge keys).
func decodedFFFD(body []byte) int {
	dec := json.NewDecoder(bytes.NewReader(body))
	n := 0
	for {
		tok, err := dec.Token()
		if err != nil {
			return n
		}
		if s, ok := tok.(string); ok {
			n += strings.Count(s, "\uFFFD")
		}
	}
}

// sourceFFFD counts the U+FFFD that a JSON text holds as such: the
// valid UTF-8 encoding of U+FFFD, or the escape \ufffd (not an escaped
// backslash followed by "ufffd").
func sourceFFFD(body []byte) int {
	n := 0
	for i := 0; i < len(body); {
		if body[i] == '\\' && i+1 < len(body) {
			if body[i+1] == 'u' && i+6 <= len(body) && strings.EqualFold(string(body[i+2:i+6]), "fffd") {
				n++
			}
			i += 2
			continue
		}
		r, size := utf8.DecodeRune(body[i:])
		if r == '\uFFFD' && size == 3 {
			n++
		}
		i += size
	}
	return n
}
