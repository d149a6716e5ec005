package main

import (
	"fmt"
	"maps"
	"slices"
	"strings"
)

// account is what a fan-out run delivered against what it owed.
type account struct {
	expected, delivered  int
	dups, foreign, other int
	ended                map[int]int // close code → sockets the server ended during the run
	posts, failed        int
	failure              string
	lat                  []int64 // every first receipt's latency, nanoseconds
}

// settle counts, once the sockets' readers have stopped, each stored
// submission's delivery to each socket of its workspace.
func (m *meter) settle(socks []*sock) account {
	m.mu.Lock()
	a := account{ended: map[int]int{}, posts: len(m.ids), failed: m.failed, failure: m.failure}
	m.mu.Unlock()
	stored := map[int][]int{} // workspace → its stored submissions
	for i := m.warm; i < len(m.ids); i++ {
		if m.ok[i].Load() {
			stored[m.tenant[i]] = append(stored[m.tenant[i]], i)
		}
	}
	for _, k := range socks {
		for _, i := range stored[k.tenant] {
			a.expected++
			if k.seen.has(i) {
				a.delivered++
			}
		}
		a.dups, a.foreign, a.other = a.dups+k.dups, a.foreign+k.foreign, a.other+k.other
		if k.ended != 0 {
			a.ended[k.ended]++
		}
		a.lat = append(a.lat, k.lat...)
	}
	return a
}

// complete reports whether every stored submission reached every socket
// of its workspace once, and no other.
func (a account) complete() bool {
	return a.delivered == a.expected && a.dups == 0 && a.foreign == 0 && a.failed == 0
}

// cell is the table's "delivered / expected" cell, naming each anomaly.
func (a account) cell() string {
	var notes []string
	add := func(n int, what string) {
		if n > 0 {
			notes = append(notes, thousands(n)+" "+what)
		}
	}
	add(a.expected-a.delivered, "missing")
	add(a.dups, "duplicated")
	add(a.foreign, "of another workspace")
	add(a.other, "other messages")
	if a.failed > 0 {
		notes = append(notes, fmt.Sprintf("%s of %s POSTs failed (%s)", thousands(a.failed), thousands(a.posts), a.failure))
	}
	for _, code := range slices.Sorted(maps.Keys(a.ended)) {
		notes = append(notes, fmt.Sprintf("%s sockets closed by the server (%d)", thousands(a.ended[code]), code))
	}
	s := thousands(a.delivered) + " / " + thousands(a.expected)
	if len(notes) > 0 {
		s += ": " + strings.Join(notes, ", ")
	}
	return s
}

// thousands writes n with thousands separators: 40,000.
func thousands(n int) string {
	s := fmt.Sprint(n)
	if n < 0 {
		return "-" + thousands(-n)
	}
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}
