package main

import (
	"testing"
	"time"
)

const wrkReport = `Running 2s test @ http://127.0.0.1:41234/q/abc
  1 threads and 16 connections
  Thread Stats   Avg      Stdev     Max   +/- Stdev
    Latency    25.01ms   40.12ms 303.01ms   91.10%
    Req/Sec   670.00    100.00   800.00     70.00%
  Latency Distribution
     50%   19.05ms
     75%   22.00ms
     90%   30.00ms
     99%    1.20s
  1332 requests in 2.00s, 300.00KB read
  Socket errors: connect 0, read 2, write 0, timeout 1
  Non-2xx or 3xx responses: 4
Requests/sec:    666.12
Transfer/sec:    150.00KB
`

func TestParseWrk(t *testing.T) {
	m, err := parseWrk(wrkReport)
	if err != nil {
		t.Fatal(err)
	}
	want := measure{rps: 666.12, p50: 19050 * time.Microsecond, p99: 1200 * time.Millisecond, errors: 7}
	if m != want {
		t.Errorf("parseWrk = %+v, want %+v", m, want)
	}
	if _, err := parseWrk("wrk: connection refused"); err == nil {
		t.Error("parseWrk accepted a report without figures")
	}
}

func TestMedian(t *testing.T) {
	for _, c := range []struct {
		in   []float64
		want float64
	}{{[]float64{3, 1, 2}, 2}, {[]float64{4, 1, 3, 2}, 2.5}, {nil, 0}} {
		ms := make([]measure, len(c.in))
		for i, v := range c.in {
			ms[i].rps = v
		}
		if got := median(ms, rps); got != c.want {
			t.Errorf("median(%v) = %v, want %v", c.in, got, c.want)
		}
	}
}
