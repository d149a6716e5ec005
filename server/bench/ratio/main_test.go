package main

import (
	"strings"
	"testing"
)

func TestTable(t *testing.T) {
	in := `goos: linux
BenchmarkIngest/postgres/feedbackd-2         	    4282	    741500 ns/op
BenchmarkIngest/postgres/bare-2              	    4719	    593200 ns/op
BenchmarkIngest/sqlite/feedbackd-2           	    5637	    647509 ns/op
BenchmarkListHygiene/sqlite/bare-2           	      14	 182207021 ns/op
PASS`
	res, err := parse(strings.NewReader(in))
	if err != nil {
		t.Fatal(err)
	}
	got := table(res)
	if !strings.Contains(got, "Ingest/postgres") || !strings.Contains(got, "0.80") {
		t.Errorf("table lacks the postgres ingest ratio 0.80:\n%s", got)
	}
	if strings.Contains(got, "Ingest/sqlite") || strings.Contains(got, "ListHygiene") {
		t.Errorf("table shows a benchmark without both sides:\n%s", got)
	}
}
