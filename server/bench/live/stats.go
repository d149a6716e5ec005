package main

import (
	"bytes"
	"slices"
	"time"
)

var (
	dataKey = []byte(`"data":`)
	idKey   = []byte(`"id":"`)
)

// submissionID returns the id of the record inside an event's data: the
// first "id" after "data". It only scans bytes, since the worst case
// reads 100,000 messages a second on one CPU, where decoding each would
// measure the load generator rather than feedbackd. The envelope's own
// "id" (the event's) comes before "data" and is skipped.
func submissionID(msg []byte) ([]byte, bool) {
	i := bytes.Index(msg, dataKey)
	if i < 0 {
		return nil, false
	}
	rest := msg[i+len(dataKey):]
	j := bytes.Index(rest, idKey)
	if j < 0 {
		return nil, false
	}
	rest = rest[j+len(idKey):]
	k := bytes.IndexByte(rest, '"')
	if k <= 0 {
		return nil, false
	}
	return rest[:k], true
}

// summary is the distribution of a run's latencies.
type summary struct {
	n             int
	p50, p99, max time.Duration
}

// summarize sorts lat (nanoseconds) in place and returns its p50, p99
// and maximum.
func summarize(lat []int64) summary {
	slices.Sort(lat)
	if len(lat) == 0 {
		return summary{}
	}
	return summary{n: len(lat), p50: time.Duration(percentile(lat, 50)),
		p99: time.Duration(percentile(lat, 99)), max: time.Duration(lat[len(lat)-1])}
}

// percentile returns the p-th percentile (0 < p <= 100) of sorted by the
// nearest-rank method: the smallest value that at least p percent of the
// values do not exceed, one of the measured values, never an
// interpolation. The rank is computed in integers: 0.99*100 is not 99
// in floating point.
func percentile(sorted []int64, p int) int64 {
	if len(sorted) == 0 {
		return 0
	}
	rank := (p*len(sorted) + 99) / 100 // ⌈p·n/100⌉
	return sorted[min(max(rank, 1), len(sorted))-1]
}

// bitset records which submissions a socket has received, in a bit
// each: a thousand sockets times the run's submissions would be
// millions of map entries.
type bitset []uint64

func newBitset(n int) bitset { return make(bitset, (n+63)/64) }

// set marks i and reports whether it was already marked.
func (b bitset) set(i int) bool {
	w, m := i/64, uint64(1)<<(i%64)
	was := b[w]&m != 0
	b[w] |= m
	return was
}

func (b bitset) has(i int) bool { return b[i/64]&(uint64(1)<<(i%64)) != 0 }
