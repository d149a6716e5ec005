// Command sink is a webhook receiver for load tests (server/bench/webhook.sh):
// it answers every delivery 204, after -delay, and counts them by
// webhook-id. Each second it prints how many distinct deliveries arrived,
// how many were repeats, and the lag from the event's timestamp (the
// commit, on the server's clock: run both on one machine) to the first
// arrival, as p50 and p99 so far. It exits after -expect deliveries, or
// after -idle without one.
package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"log"
	"net"
	"net/http"
	"os"
	"slices"
	"sync"
	"time"
)

func main() {
	addr := flag.String("addr", "127.0.0.1:0", "listen address")
	delay := flag.Duration("delay", 0, "how long each answer takes")
	expect := flag.Int("expect", 0, "exit after this many distinct deliveries (0: never)")
	idle := flag.Duration("idle", 30*time.Second, "exit after this long without a delivery")
	flag.Parse()
	ln, err := net.Listen("tcp", *addr)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(ln.Addr().String()) // the first line: where to send
	s := &sink{seen: map[string]bool{}, last: time.Now()}
	go func() { log.Fatal(http.Serve(ln, s.handler(*delay))) }()
	for range time.Tick(time.Second) {
		done, quiet := s.report(*expect, *idle)
		if done || quiet {
			os.Exit(0)
		}
	}
}

// sink keeps what arrived.
type sink struct {
	mu      sync.Mutex
	seen    map[string]bool // webhook-id
	repeats int
	lags    []time.Duration
	last    time.Time
}

func (s *sink) handler(delay time.Duration) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		now := time.Now()
		var e struct {
			Timestamp time.Time `json:"timestamp"`
		}
		body, _ := io.ReadAll(r.Body)
		_ = json.Unmarshal(body, &e)
		s.mu.Lock()
		id := r.Header.Get("webhook-id")
		if s.seen[id] {
			s.repeats++
		} else {
			s.seen[id] = true
			s.lags = append(s.lags, now.Sub(e.Timestamp))
		}
		s.last = now
		s.mu.Unlock()
		time.Sleep(delay)
		w.WriteHeader(http.StatusNoContent)
	})
}

// report prints the counts and lags so far, and tells whether the
// expected number arrived or the sink has been idle too long.
func (s *sink) report(expect int, idle time.Duration) (done, quiet bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	lags := slices.Clone(s.lags)
	slices.Sort(lags)
	var p50, p99 time.Duration
	if n := len(lags); n > 0 {
		p50, p99 = lags[n/2], lags[n*99/100]
	}
	fmt.Printf("deliveries %d repeats %d lag p50 %v p99 %v\n", len(s.seen), s.repeats,
		p50.Round(time.Millisecond), p99.Round(time.Millisecond))
	return expect > 0 && len(s.seen) >= expect, len(s.seen) > 0 && time.Since(s.last) > idle
}
