package offline_test

import (
	"context"
	"encoding/json"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/feedbackhq/feedback/app/offline"
	"github.com/feedbackhq/feedback/shared/feedback"
)

// syncServer answers each sync with result(id) per submission.
func syncServer(t *testing.T, result func(id string) feedback.SyncResult) func(request) (offline.Response, error) {
	return func(r request) (offline.Response, error) {
		var out feedback.SyncResponse
		for _, id := range r.ids(t) {
			out.Results = append(out.Results, result(id))
		}
		b, _ := json.Marshal(out)
		return offline.Response{Status: 200, Body: b}, nil
	}
}

func created(id string) feedback.SyncResult { return feedback.SyncResult{ID: id, Status: 201} }

func paired() offline.Option {
	return offline.WithKioskCredential(func() string { return "fbkk_secret" })
}

func TestKioskBatches(t *testing.T) {
	ctx := context.Background()
	s := &fakeSender{}
	s.respond = syncServer(t, created)
	items := kioskIDs(1200)
	q, m, _ := newQueue(t, s, items, paired())
	rep, err := q.Flush(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if rep.Requests != 3 || rep.Removed != 1200 {
		t.Errorf("report = %+v; want 3 requests removing 1200 items", rep)
	}
	var sizes, depths []int
	next := 0
	for _, r := range s.requests() {
		ids := r.ids(t)
		sizes = append(sizes, len(ids))
		var body struct {
			QueueDepth int `json:"queue_depth"`
		}
		json.Unmarshal(r.Body, &body)
		depths = append(depths, body.QueueDepth)
		for _, id := range ids {
			if want := items[next].ID; id != want {
				t.Fatalf("sent %s; want %s: batches keep the queue's order", id, want)
			}
			next++
		}
		if r.URL != "/kiosk/sync" || r.Headers["Authorization"] != "Bearer fbkk_secret" {
			t.Errorf("request to %s with %v", r.URL, r.Headers)
		}
	}
	if diff := cmp.Diff([]int{500, 500, 200}, sizes); diff != "" {
		t.Errorf("batch sizes (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]int{1200, 700, 200}, depths); diff != "" {
		t.Errorf("queue depths reported with each batch, the batch included (-want +got):\n%s", diff)
	}
	if got := idsOf(t)(m.List(ctx)); len(got) != 0 {
		t.Errorf("%d items pending; want none", len(got))
	}
}

func TestKioskBatchSizeAndSyncURL(t *testing.T) {
	s := &fakeSender{}
	s.respond = syncServer(t, created)
	q, _, _ := newQueue(t, s, kioskIDs(5), paired(), offline.WithBatchSize(2), offline.WithSyncURL("/api/kiosk/sync"))
	q.Flush(context.Background())
	reqs := s.requests()
	if len(reqs) != 3 || reqs[0].URL != "/api/kiosk/sync" {
		t.Errorf("%d requests to %s; want 3 to /api/kiosk/sync", len(reqs), reqs[0].URL)
	}
}

func TestKioskResults(t *testing.T) {
	ctx := context.Background()
	invalid := &feedback.Problem{Status: 422, Code: feedback.EValidation, Detail: "The rating is required."}
	results := map[string]feedback.SyncResult{
		"k0000": {ID: "K0000", Status: 201}, // ids compare case-insensitively
		"k0001": {ID: "k0001", Status: 200},
		"k0002": {ID: "k0002", Status: 409, Problem: &feedback.Problem{Code: feedback.EIdempotencyConflict}},
		"k0003": {ID: "k0003", Status: 422, Problem: invalid},
		"k0004": {ID: "k0004", Status: 410, Problem: &feedback.Problem{Code: feedback.EPosterRevoked, Detail: "Revoked."}},
		"k0005": {ID: "k0005", Status: 500, Problem: &feedback.Problem{Code: feedback.EInternal, Detail: "An internal error occurred."}},
		"k0006": {ID: "k0006", Status: 201},
		"k0007": {ID: "k0007", Status: 409, Problem: &feedback.Problem{Code: feedback.EFormNotActive, Detail: "Closed."}},
	}
	s := &fakeSender{}
	s.respond = syncServer(t, func(id string) feedback.SyncResult { return results[id] })
	q, m, _ := newQueue(t, s, kioskIDs(8), paired())
	rep, err := q.Flush(ctx)
	if err != nil {
		t.Fatal(err)
	}
	want := offline.Report{Requests: 1, Removed: 4, Dead: 3, Kept: 1, NextTry: rep.NextTry}
	if diff := cmp.Diff(want, rep); diff != "" || rep.NextTry.IsZero() {
		t.Errorf("report (-want +got):\n%s", diff)
	}
	pending, _ := m.List(ctx)
	if len(pending) != 1 || pending[0].ID != "k0005" || pending[0].Attempts != 1 || pending[0].LastStatus != 500 {
		t.Errorf("pending = %+v; want k0005 kept with its status", pending)
	}
	dead, _ := m.ListDead(ctx)
	var got []string
	for _, d := range dead {
		got = append(got, d.ID+" "+d.LastError)
	}
	wantDead := []string{"k0003 The rating is required.", "k0004 Revoked.", "k0007 Closed."}
	if diff := cmp.Diff(wantDead, got); diff != "" {
		t.Errorf("dead letters (-want +got):\n%s", diff)
	}
}

func TestKioskMissingResults(t *testing.T) {
	ctx := context.Background()
	tests := []struct {
		name    string
		results string
		kept    []string
	}{
		{"fewer results", `{"results":[{"id":"k0000","status":201},{"id":"k0001","status":201}]}`, []string{"k0002", "k0003"}},
		{"out of order", `{"results":[{"id":"k0003","status":201},{"id":"k0001","status":201},{"id":"k0000","status":200}]}`, []string{"k0002"}},
		{"not results", `<html>portal</html>`, []string{"k0000", "k0001", "k0002", "k0003"}},
		{"no results", `{}`, []string{"k0000", "k0001", "k0002", "k0003"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := &fakeSender{respond: answer(200, tt.results)}
			q, m, _ := newQueue(t, s, kioskIDs(4), paired())
			q.Flush(ctx)
			if diff := cmp.Diff(tt.kept, idsOf(t)(m.List(ctx))); diff != "" {
				t.Errorf("pending (-want +got):\n%s", diff)
			}
			if st, _ := q.Stats(ctx); st.NextTry.IsZero() || st.LastError == "" {
				t.Errorf("Stats = %+v; want a retry scheduled", st)
			}
		})
	}
}

func TestKioskSplitsOn413(t *testing.T) {
	ctx := context.Background()
	const tooBig = "k0007" // alone still too large
	s := &fakeSender{}
	ok := syncServer(t, created)
	s.respond = func(r request) (offline.Response, error) {
		ids := r.ids(t)
		if len(ids) > 100 || slices.Contains(ids, tooBig) {
			return offline.Response{Status: 413, Body: []byte(problem(413, feedback.EPayloadTooLarge, "Too large."))}, nil
		}
		return ok(r)
	}
	q, m, _ := newQueue(t, s, kioskIDs(300), paired())
	rep, err := q.Flush(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if rep.Removed != 299 || rep.Dead != 1 {
		t.Errorf("report = %+v; want 299 removed and the oversized item dead", rep)
	}
	dead, _ := m.ListDead(ctx)
	if len(dead) != 1 || dead[0].ID != tooBig || dead[0].LastStatus != 413 {
		t.Errorf("dead = %+v; want %s with status 413", dead, tooBig)
	}
	if got := idsOf(t)(m.List(ctx)); len(got) != 0 {
		t.Errorf("pending = %v; want none", got)
	}
}

func TestKioskUnpaired(t *testing.T) {
	ctx := context.Background()
	cred := ""
	s := &fakeSender{}
	ok := syncServer(t, created)
	s.respond = func(r request) (offline.Response, error) {
		if r.Headers["Authorization"] != "Bearer fbkk_new" {
			return offline.Response{Status: 401, Body: []byte(problem(401, feedback.ETokenRevoked, "Pair again."))}, nil
		}
		return ok(r)
	}
	items := append(kioskIDs(3), visitor("v", 10))
	q, m, _ := newQueue(t, s, items, offline.WithKioskCredential(func() string { return cred }))

	rep, _ := q.Flush(ctx)
	st, _ := q.Stats(ctx)
	if !rep.Unpaired || !st.Unpaired || len(s.requests()) != 1 || s.requests()[0].URL != "/q/abc" {
		t.Errorf("no credential: report %+v, stats %+v, %d requests; want kiosk items held back, the visitor item sent",
			rep, st, len(s.requests()))
	}

	cred = "fbkk_old"
	q.Flush(ctx)
	st, _ = q.Stats(ctx)
	pending, _ := m.List(ctx)
	if !st.Unpaired || st.NextTry.IsZero() || len(pending) != 3 || pending[0].LastStatus != 401 {
		t.Errorf("401: stats %+v, pending %+v; want all kept, unpaired, retry scheduled", st, pending)
	}

	cred = "fbkk_new"
	q.Flush(ctx)
	st, _ = q.Stats(ctx)
	if st.Unpaired || st.Pending != 0 {
		t.Errorf("paired again: stats %+v; want all sent", st)
	}
}

func TestKioskBatchRefused(t *testing.T) {
	ctx := context.Background()
	tests := []struct {
		name     string
		status   int
		wantKept int
		wantDead int
	}{
		{"503", 503, 4, 0},
		{"429", 429, 4, 0},
		{"403 refused as a whole", 403, 4, 0},
		{"422 each item invalid", 422, 0, 4},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			q, m, _ := newQueue(t, &fakeSender{respond: answer(tt.status, "")}, kioskIDs(4), paired())
			q.Flush(ctx)
			pending, _ := m.List(ctx)
			dead, _ := m.ListDead(ctx)
			if len(pending) != tt.wantKept || len(dead) != tt.wantDead {
				t.Errorf("%d pending, %d dead; want %d and %d", len(pending), len(dead), tt.wantKept, tt.wantDead)
			}
		})
	}
}
