package feedback

import (
	"encoding/json"
	"testing"
	"time"
)

// TestTimeJSON checks that a Time is written as a JSON string of UTC
// milliseconds, whatever its zone, alone, in a struct and behind a
// pointer, and read back from any RFC 3339 string.
func TestTimeJSON(t *testing.T) {
	ist := time.FixedZone("IST", 5*3600+1800)
	at := NewTime(time.Date(2026, 3, 27, 15, 30, 0, 123456789, ist))
	got, err := json.Marshal(struct {
		A Time  `json:"a"`
		B *Time `json:"b"`
		C *Time `json:"c"`
	}{at, &at, nil})
	want := `{"a":"2026-03-27T10:00:00.123Z","b":"2026-03-27T10:00:00.123Z","c":null}`
	if err != nil || string(got) != want {
		t.Errorf("Marshal = %s, %v; want %s", got, err, want)
	}
	var back Time
	if err := json.Unmarshal([]byte(`"2026-03-27T15:30:00.123456+05:30"`), &back); err != nil || !back.Equal(time.Date(2026, 3, 27, 10, 0, 0, 123456000, time.UTC)) {
		t.Errorf("Unmarshal = %v, %v", back, err)
	}
	if err := json.Unmarshal([]byte(`12`), &back); err == nil {
		t.Error("Unmarshal of a number: no error")
	}
}

// TestAppendTime checks the hand-written formatter against AppendFormat
// on times spread over every year it writes digit by digit, and on the
// years beyond, which it leaves to AppendFormat.
func TestAppendTime(t *testing.T) {
	times := []time.Time{
		time.Date(0, 1, 1, 0, 0, 0, 0, time.UTC),
		time.Date(9999, 12, 31, 23, 59, 59, 999999999, time.UTC),
		time.Date(-1, 6, 1, 1, 2, 3, 4e6, time.UTC),
		time.Date(10000, 1, 1, 0, 0, 0, 0, time.UTC),
		time.Unix(0, 0).UTC(),
	}
	for i := range 10_000 {
		sec := int64(i) * 31_536_017_003 % 315_537_897_599 // spread over the years 1 to 9999
		times = append(times, time.Unix(sec-62_135_596_800, int64(i)*7_919_357%1e9).UTC())
	}
	for _, u := range times {
		got, want := string(appendTime(nil, u)), u.Format(TimeFormat)
		if got != want {
			t.Fatalf("appendTime(%v) = %s, want %s", u, got, want)
		}
	}
}
