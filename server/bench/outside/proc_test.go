package outside

import (
	"os"
	"strings"
	"testing"
	"time"
)

const status = "Name:\tfeedbackd\nVmHWM:\t   31000 kB\nVmRSS:\t   22528 kB\nThreads:\t7\n"

func TestParseKB(t *testing.T) {
	for _, c := range []struct {
		field string
		want  int64
		ok    bool
	}{{"VmRSS", 22528, true}, {"VmHWM", 31000, true}, {"Threads", 0, false}, {"VmSwap", 0, false}} {
		got, err := parseKB(status, c.field)
		if got != c.want || (err == nil) != c.ok {
			t.Errorf("parseKB(%s) = %d, %v; want %d, ok %v", c.field, got, err, c.want, c.ok)
		}
	}
	if got := Status(-1, "VmRSS"); got != "?" {
		t.Errorf("Status of no process = %q, want ?", got)
	}
}

func TestRequire(t *testing.T) {
	if err := Require("go"); err != nil {
		t.Errorf("Require(go) = %v, want nil: the test runs under go", err)
	}
	err := Require("no-such-tool-feedback", "go")
	if err == nil || !strings.Contains(err.Error(), "no-such-tool-feedback is not on PATH") {
		t.Errorf("Require(no-such-tool-feedback, go) = %v, want it named", err)
	}
}

func TestCPUTime(t *testing.T) {
	// A real line of a feedbackd process: utime 1234 and stime 56 ticks.
	const line = "4242 (feedbackd (x)) S 1 4242 4242 0 -1 4194560 3000 0 0 0 1234 56 0 0 20 0 9 0 100 0 0"
	f, err := statFields(line)
	if err != nil {
		t.Fatal(err)
	}
	if f[0] != "S" || f[1] != "1" {
		t.Errorf("statFields = %q, want the state then the parent", f[:2])
	}
	got, err := cpuTime(f)
	if want := 12900 * time.Millisecond; got != want || err != nil {
		t.Errorf("cpuTime = %v, %v; want %v", got, err, want)
	}
	if _, err := statFields("no command"); err == nil {
		t.Error("statFields accepted a line without a command name")
	}
	if own, err := CPUTime(os.Getpid()); err != nil || own < 0 {
		t.Errorf("CPUTime of this test = %v, %v", own, err)
	}
}
