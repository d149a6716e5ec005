package bench_test

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"testing"

	"github.com/feedbackhq/feedback/shared/feedback"
)

var kinds = []string{"postgres", "sqlite"}

// post sends one new hygiene submission to base and returns the status.
func post(tb testing.TB, e *env, base, id string) int {
	body, _ := json.Marshal(map[string]any{"id": id, "rating": 4, "tags": []string{"no_soap"}})
	res, err := e.client.Post(base+"/q/"+e.code, "application/json", bytes.NewReader(body))
	if err != nil {
		tb.Fatal(err)
	}
	io.Copy(io.Discard, res.Body)
	res.Body.Close()
	return res.StatusCode
}

// list fetches the first page of hygiene submissions with meta.total.
func list(tb testing.TB, e *env, base, token string) int {
	req, _ := http.NewRequest("GET", base+"/api/v1/hygiene?per_page=50", nil)
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	} else {
		req.URL.RawQuery += "&ws=" + e.ws.ID
	}
	res, err := e.client.Do(req)
	if err != nil {
		tb.Fatal(err)
	}
	var page struct{ Meta feedback.Meta }
	err = json.NewDecoder(res.Body).Decode(&page)
	res.Body.Close()
	if err != nil || res.StatusCode != http.StatusOK {
		tb.Fatalf("GET %s/api/v1/hygiene: %d %v", base, res.StatusCode, err)
	}
	return page.Meta.Total
}

// BenchmarkIngest posts new hygiene submissions in parallel: the
// service's POST /q/{code} beside the bare handler running its SQL.
func BenchmarkIngest(b *testing.B) {
	for _, kind := range kinds {
		b.Run(kind, func(b *testing.B) {
			e := sharedEnv(b, kind, 0)
			for _, side := range []struct{ name, base string }{{"feedbackd", e.service.URL}, {"bare", e.bare.URL}} {
				b.Run(side.name, func(b *testing.B) {
					b.SetParallelism(4)
					b.RunParallel(func(pb *testing.PB) {
						for pb.Next() {
							if st := post(b, e, side.base, feedback.NewID()); st != http.StatusCreated {
								b.Fatalf("POST: %d", st)
							}
						}
					})
				})
			}
		})
	}
}

// listRows is the size of the table the list benchmark reads.
const listRows = 1_000_000

// BenchmarkListHygiene reads the first page of GET /api/v1/hygiene,
// meta.total included, from a workspace holding a million submissions.
func BenchmarkListHygiene(b *testing.B) {
	for _, kind := range kinds {
		b.Run(kind, func(b *testing.B) {
			e := sharedEnv(b, kind, listRows)
			for _, side := range []struct{ name, base, token string }{
				{"feedbackd", e.service.URL, e.token}, {"bare", e.bare.URL, ""}} {
				b.Run(side.name, func(b *testing.B) {
					b.RunParallel(func(pb *testing.PB) {
						for pb.Next() {
							if n := list(b, e, side.base, side.token); n < listRows {
								b.Fatalf("total %d; want at least %d", n, listRows)
							}
						}
					})
				})
			}
		})
	}
}
