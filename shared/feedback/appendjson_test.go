package feedback

import (
	"encoding/json"
	"math/rand/v2"
	"testing"
	"time"
)

// awkward are strings that encoding/json escapes in every way it can.
var awkward = []string{"", "plain", `quote " and \ back`, "<b>&amp;</b>", "tab\tnew\nline\rcr\b\f\x00\x1f\x7f",
	"é ü 漢字 🧻", "\u2028\u2029", "bad \xff\xfe utf-8 \xe2\x82", "\xed\xa0\x80 surrogate"}

// TestHygieneAppendJSON checks AppendJSON against encoding/json on
// random submissions made of awkward strings.
func TestHygieneAppendJSON(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	pick := func() string { return awkward[r.IntN(len(awkward))] }
	for i := range 2000 {
		h := HygieneSubmission{ID: pick(), Rating: r.IntN(7) - 1, LocationID: pick(), PosterID: pick(), Comment: pick(),
			Language: pick(), Source: Source(pick()), DeviceID: pick(),
			CapturedAt: NewTime(time.Unix(r.Int64N(1<<34), r.Int64N(1e9))), CreatedAt: NewTime(time.Unix(r.Int64N(1<<34), 0))}
		switch i % 3 {
		case 0:
			h.Tags = nil
		case 1:
			h.Tags = []string{}
		default:
			h.Tags = []string{pick(), pick()}
		}
		checkAppend(t, h)
	}
}

// FuzzAppendJSONString checks the string encoder against encoding/json.
func FuzzAppendJSONString(f *testing.F) {
	for _, s := range awkward {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		checkAppend(t, HygieneSubmission{ID: s, Comment: s, Tags: []string{s}})
	})
}

// checkAppend fails unless AppendJSON writes what json.Marshal does.
func checkAppend(t *testing.T, h HygieneSubmission) {
	t.Helper()
	want, err := json.Marshal(h)
	if err != nil {
		t.Fatal(err)
	}
	if got := h.AppendJSON(nil); string(got) != string(want) {
		t.Fatalf("AppendJSON(%+v)\n got %s\nwant %s", h, got, want)
	}
}
