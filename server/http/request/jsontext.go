package request

import (
	"bytes"
	"encoding/json"
	"strconv"
	"unicode/utf8"

	"github.com/feedbackhq/feedback/shared/feedback"
)

// CheckJSONText refuses JSON text whose strings are not valid Unicode:
// bytes that are not UTF-8, or an escaped surrogate (\ud800-\udfff)
// that is not half of a pair. encoding/json would quietly replace both
// with U+FFFD and the service would store something other than what was
// sent, so the request is refused instead, naming the first such field
// (a key path such as "name", "answers.q1" or "questions[2].labels.de").
// Text that is not JSON at all is left to the decoder to refuse.
func CheckJSONText(body []byte) error {
	if utf8.Valid(body) && !bytes.Contains(body, []byte(`\u`)) {
		return nil // the common case: nothing to look at closely
	}
	name, reason := firstBadString(body)
	if name == "" {
		return nil
	}
	return &feedback.Error{Code: feedback.EMalformedBody, Message: "Field " + name + " is not valid UTF-8 text.",
		Params: []feedback.InvalidParam{{Name: name, Reason: reason}}}
}

// firstBadString walks the tokens of body and returns the path of the
// first string (key or value) that is not valid Unicode, and why.
func firstBadString(body []byte) (string, string) {
	dec := json.NewDecoder(bytes.NewReader(body))
	var p jsonPath
	for {
		before := dec.InputOffset()
		tok, err := dec.Token()
		if err != nil {
			return "", "" // the end, or not JSON: the decoder says so
		}
		if _, isString := tok.(string); isString {
			if reason := badString(body[before:dec.InputOffset()]); reason != "" {
				return p.nameOf(tok.(string)), reason
			}
		}
		p.step(tok)
	}
}

// badString says what is wrong with the raw text of a JSON string
// token (with any separator before it), or "" when it is valid.
func badString(raw []byte) string {
	if !utf8.Valid(raw) {
		return "must be valid UTF-8"
	}
	for i := 0; i < len(raw); i++ {
		if raw[i] != '\\' {
			continue
		}
		i++ // the escaped character
		if i >= len(raw) || raw[i] != 'u' {
			continue
		}
		r := hex4(raw[i+1:])
		switch {
		case r >= 0xd800 && r < 0xdc00 && bytes.HasPrefix(raw[i+5:], []byte(`\u`)) && isLow(hex4(raw[i+7:])):
			i += 10 // a high surrogate followed by a low one: a pair
		case r >= 0xd800 && r < 0xe000:
			return "must be valid UTF-8: an escaped surrogate (\\u" + string(raw[i+1:i+5]) + ") is not half of a pair"
		default:
			i += 4
		}
	}
	return ""
}

// hex4 returns the value of the four hex digits at the start of b, or
// -1.
func hex4(b []byte) int {
	if len(b) < 4 {
		return -1
	}
	n, err := strconv.ParseUint(string(b[:4]), 16, 16)
	if err != nil {
		return -1
	}
	return int(n)
}

func isLow(r int) bool { return r >= 0xdc00 && r < 0xe000 }

// jsonPath follows where a token stream is: a stack of the objects and
// arrays it is inside, with the key or index of each.
type jsonPath struct {
	frames []jsonFrame
}

type jsonFrame struct {
	object    bool
	key       string
	index     int
	expectKey bool // in an object, the next string is a key
}

// step moves the path past tok.
func (p *jsonPath) step(tok json.Token) {
	top := p.top()
	switch tok {
	case json.Delim('{'):
		p.frames = append(p.frames, jsonFrame{object: true, expectKey: true})
		return
	case json.Delim('['):
		p.frames = append(p.frames, jsonFrame{})
		return
	case json.Delim('}'), json.Delim(']'):
		p.frames = p.frames[:len(p.frames)-1]
		top = p.top()
	default:
		if s, ok := tok.(string); ok && top != nil && top.object && top.expectKey {
			top.key, top.expectKey = s, false
			return
		}
	}
	p.valueDone(top)
}

// valueDone moves past a complete value in the container top.
func (p *jsonPath) valueDone(top *jsonFrame) {
	switch {
	case top == nil:
	case top.object:
		top.expectKey = true
	default:
		top.index++
	}
}

func (p *jsonPath) top() *jsonFrame {
	if len(p.frames) == 0 {
		return nil
	}
	return &p.frames[len(p.frames)-1]
}

// nameOf returns the name of the string token s at the current place:
// the path of the value, or of the key when s is a key.
func (p *jsonPath) nameOf(s string) string {
	name := ""
	for i, f := range p.frames {
		last := i == len(p.frames)-1
		switch {
		case f.object && last && f.expectKey:
			name = joinKey(name, s) // s is a key: name the key
		case f.object:
			name = joinKey(name, f.key)
		default:
			name += "[" + strconv.Itoa(f.index) + "]"
		}
	}
	if name == "" {
		return "body"
	}
	return name
}

func joinKey(path, key string) string {
	key = string(bytes.ToValidUTF8([]byte(key), []byte("\uFFFD")))
	if path == "" {
		return key
	}
	return path + "." + key
}
