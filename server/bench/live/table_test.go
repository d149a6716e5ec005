package main

import (
	"strings"
	"testing"
	"time"
)

func TestFanoutGoal(t *testing.T) {
	f := fanout{name: "fan-out", instances: 1, sockets: 10, rate: 200, goal: 100 * time.Millisecond}
	m := newMeter(0, 1, 1)
	fast := []int64{int64(2 * time.Millisecond), int64(90 * time.Millisecond)}
	for _, c := range []struct {
		name string
		f    fanout
		a    account
		want string
	}{
		{"met", f, account{expected: 2, delivered: 2, lat: fast}, "p99 < 100ms: met"},
		{"slow", f, account{expected: 1, delivered: 1, lat: []int64{int64(120 * time.Millisecond)}}, "p99 < 100ms: NOT met"},
		{"incomplete", f, account{expected: 3, delivered: 2, lat: fast}, "p99 < 100ms: NOT met (deliveries incomplete)"},
		{"report only", fanout{name: "worst", instances: 1}, account{lat: fast}, "report"},
	} {
		if got := c.f.row(c.a, m, time.Second, 2048).goal; got != c.want {
			t.Errorf("%s: goal %q, want %q", c.name, got, c.want)
		}
	}
}

func TestIdleRow(t *testing.T) {
	s := &stage{c: config{idle: 10_000, dialers: 64, hold: 5 * time.Second}}
	r := s.idleRow(4*time.Second, [3]int64{20_000, 170_000, 180_000})
	if want := "15.0 KB per socket, 16.0 KB after 5s (RSS 20 → 166 → 176 MB)"; r.memory != want {
		t.Errorf("memory %q, want %q", r.memory, want)
	}
	if r.goal != "< 20 KB per socket: met" {
		t.Errorf("goal %q", r.goal)
	}
	r = s.idleRow(4*time.Second, [3]int64{20_000, 190_000, 230_000}) // 21 KB after the hold
	if !strings.HasSuffix(r.goal, "NOT met") {
		t.Errorf("goal %q with 21 KB per socket after the hold", r.goal)
	}
}

func TestPrintTable(t *testing.T) {
	var b strings.Builder
	printTable(&b, "2 CPUs", []row{{scenario: "idle", instances: 1, sockets: 10_000, load: "none", delivered: "—",
		accept: 4321 * time.Millisecond, memory: "15 KB", cpu: "feedbackd 80%", goal: "met"}})
	want := "| idle | 1 | 10,000 | none | — | — | — | — | 4.32s | 15 KB | feedbackd 80% | met |\n"
	if !strings.HasPrefix(b.String(), "\n2 CPUs\n\n| scenario |") || !strings.HasSuffix(b.String(), want) {
		t.Errorf("table:\n%s\nwant its last row\n%s", b.String(), want)
	}
}

func TestShares(t *testing.T) {
	before := [3]time.Duration{time.Second, 2 * time.Second, 0}
	after := [3]time.Duration{11 * time.Second, 7 * time.Second, 19 * time.Second}
	want := "feedbackd 50%, PostgreSQL 25%, load 95%"
	if got := shares(before, after, 20*time.Second); got != want {
		t.Errorf("shares = %q, want %q", got, want)
	}
}
