package main

import (
	"slices"
	"strings"
	"testing"
	"time"
)

func TestSubmissionID(t *testing.T) {
	const sub = "0190a6c1-0000-7000-8000-000000000001"
	for _, c := range []struct {
		name, msg, want string
		ok              bool
	}{
		{"event", `{"id":"0190a6c1-ffff-7000-8000-00000000000e","type":"hygiene_submission.created","timestamp":"2026-11-24T10:00:00Z",` +
			`"workspace_id":"0190a6c1-aaaa-7000-8000-000000000000","seq":42,"data":{"id":"` + sub + `","rating":4,"location_id":"x"}}`, sub, true},
		{"space after data", `{"id":"e","data": {"rating":4, "id":"` + sub + `"}}`, sub, true},
		{"ready", `{"type":"live.ready","seq":41}`, "", false},
		{"data without id", `{"id":"e","data":{"rating":4}}`, "", false},
		{"empty id", `{"id":"e","data":{"id":""}}`, "", false},
		{"cut short", `{"id":"e","data":{"id":"0190a6c1`, "", false},
	} {
		t.Run(c.name, func(t *testing.T) {
			got, ok := submissionID([]byte(c.msg))
			if string(got) != c.want || ok != c.ok {
				t.Errorf("submissionID = %q, %v; want %q, %v", got, ok, c.want, c.ok)
			}
		})
	}
}

func TestPercentile(t *testing.T) {
	hundred := make([]int64, 100)
	for i := range hundred {
		hundred[i] = int64(i + 1)
	}
	for _, c := range []struct {
		name   string
		sorted []int64
		p      int
		want   int64
	}{
		{"p50 of 1..100", hundred, 50, 50},
		{"p99 of 1..100", hundred, 99, 99}, // 0.99*100 rounds up to 100 in floating point
		{"p100 of 1..100", hundred, 100, 100},
		{"p50 of three", []int64{10, 20, 30}, 50, 20},
		{"p99 of three", []int64{10, 20, 30}, 99, 30},
		{"p1 of one", []int64{7}, 1, 7},
		{"none", nil, 50, 0},
	} {
		if got := percentile(c.sorted, c.p); got != c.want {
			t.Errorf("%s: percentile(p%d) = %d, want %d", c.name, c.p, got, c.want)
		}
	}
}

func TestSummarize(t *testing.T) {
	lat := []int64{int64(3 * time.Millisecond), int64(time.Millisecond), int64(2 * time.Millisecond)}
	got := summarize(lat)
	want := summary{n: 3, p50: 2 * time.Millisecond, p99: 3 * time.Millisecond, max: 3 * time.Millisecond}
	if got != want {
		t.Errorf("summarize = %+v, want %+v", got, want)
	}
	if !slices.IsSorted(lat) {
		t.Error("summarize left the latencies unsorted")
	}
	if got := summarize(nil); got != (summary{}) {
		t.Errorf("summarize(nil) = %+v, want zero", got)
	}
}

func TestBitset(t *testing.T) {
	b := newBitset(130)
	for _, i := range []int{0, 63, 64, 129} {
		if b.set(i) {
			t.Errorf("set(%d) reported a bit never set", i)
		}
		if !b.set(i) || !b.has(i) {
			t.Errorf("bit %d is not set after set", i)
		}
	}
	if b.has(1) || b.has(65) || b.has(128) {
		t.Error("has reports bits never set")
	}
}

func TestReadAll(t *testing.T) {
	msg := strings.Repeat("x", 3000)
	buf := make([]byte, 0, 16)
	got, err := readAll(buf, strings.NewReader(msg))
	if err != nil || string(got) != msg {
		t.Fatalf("readAll = %d bytes, %v; want the 3000 bytes", len(got), err)
	}
	again, _ := readAll(got[:0], strings.NewReader("short"))
	if string(again) != "short" || &again[0] != &got[0] {
		t.Error("readAll did not reuse the buffer's room")
	}
}
