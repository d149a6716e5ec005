package main

import (
	"testing"
)

// event is a live message of submission id.
func event(id string) []byte {
	return []byte(`{"id":"e","type":"hygiene_submission.created","seq":1,"data":{"id":"` + id + `","rating":4}}`)
}

// TestAccount: each stored, measured submission is owed once to every
// socket of its workspace; warm-up submissions, repeats, other
// workspaces' events and other messages are set apart.
func TestAccount(t *testing.T) {
	m := newMeter(2, 4, 2) // submissions 0, 1 warm up; 2..5 measured; workspace i%2
	for i := range m.ids {
		m.sent[i].Store(int64(i) * 1000)
		m.ok[i].Store(i != 5)
	}
	m.fail(errString("POST /q/…: 500 Internal Server Error"))
	k0 := &sock{tenant: 0, seen: newBitset(len(m.ids))}
	k1 := &sock{tenant: 1, seen: newBitset(len(m.ids)), ended: 1013}
	for _, r := range []struct {
		k   *sock
		msg []byte
	}{
		{k0, event(m.ids[0])}, // warm-up: ignored
		{k0, event(m.ids[2])},
		{k0, event(m.ids[2])}, // again
		{k0, event(m.ids[3])}, // workspace 1's
		{k0, []byte(`{"type":"live.ready","seq":1}`)},
		{k1, event(m.ids[3])},
		{k1, event(m.ids[5])}, // stored after all, though its POST failed
	} {
		m.record(r.k, r.msg, 10_000)
	}
	a := m.settle([]*sock{k0, k1})
	// Owed: 2 and 4 to k0, 3 to k1 (5's POST failed); k0 lacks 4.
	want := account{expected: 3, delivered: 2, dups: 1, foreign: 1, other: 1, posts: 6, failed: 1}
	if a.expected != want.expected || a.delivered != want.delivered || a.dups != want.dups ||
		a.foreign != want.foreign || a.other != want.other || a.posts != want.posts || a.failed != want.failed {
		t.Errorf("settle = %+v, want %+v", a, want)
	}
	if len(a.lat) != 3 || m.received.Load() != 3 {
		t.Errorf("%d latencies and %d receipts, want 3 of each (2, 3 and 5; not the warm-up 0)", len(a.lat), m.received.Load())
	}
	if a.complete() {
		t.Error("complete with a delivery missing")
	}
	const cell = "2 / 3: 1 missing, 1 duplicated, 1 of another workspace, 1 other messages, " +
		"1 of 6 POSTs failed (POST /q/…: 500 Internal Server Error), 1 sockets closed by the server (1013)"
	if got := a.cell(); got != cell {
		t.Errorf("cell =\n%s\nwant\n%s", got, cell)
	}
	if got := m.expected([]int{1, 1}); got != 3 {
		t.Errorf("expected = %d, want 3", got)
	}
}

func TestCompleteCell(t *testing.T) {
	a := account{expected: 40000, delivered: 40000, posts: 4000, ended: map[int]int{}}
	if !a.complete() || a.cell() != "40,000 / 40,000" {
		t.Errorf("a complete run: complete %v, cell %q", a.complete(), a.cell())
	}
}

func TestThousands(t *testing.T) {
	for n, want := range map[int]string{0: "0", 999: "999", 1000: "1,000", 40000: "40,000", 1234567: "1,234,567", -1500: "-1,500"} {
		if got := thousands(n); got != want {
			t.Errorf("thousands(%d) = %q, want %q", n, got, want)
		}
	}
}

type errString string

func (e errString) Error() string { return string(e) }
