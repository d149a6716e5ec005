// Package offlinetest is the contract every [offline.Store] must meet,
// run by the tests of each implementation: the in-memory store natively,
// IndexedDB and localStorage in a browser.
package offlinetest

import (
	"context"
	"encoding/json"
	"fmt"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/feedbackhq/feedback/app/offline"
)

// Run runs the contract suite; open returns a new, empty store for each
// subtest.
func Run(t *testing.T, open func(testing.TB) offline.Store) {
	tests := []struct {
		name string
		fn   func(*testing.T, offline.Store)
	}{
		{"ListIsOldestFirst", testOrder},
		{"PutReplacesByID", testReplace},
		{"Delete", testDelete},
		{"Has", testHas},
		{"DeadLetters", testDead},
		{"FieldsRoundTrip", testFields},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) { tt.fn(t, open(t)) })
	}
}

var base = time.Date(2026, 11, 21, 9, 0, 0, 0, time.UTC)

// Item returns a visitor item with id, added n seconds after a fixed time.
func Item(id string, n int) offline.Item {
	return offline.Item{ID: id, Kind: offline.KindVisitor, URL: "/q/abc",
		Body: json.RawMessage(fmt.Sprintf(`{"id":%q,"rating":4}`, id)), Added: base.Add(time.Duration(n) * time.Second)}
}

// IDs returns a function returning the ids of the items a List returned,
// failing t on its error: IDs(t)(s.List(ctx)).
func IDs(t testing.TB) func([]offline.Item, error) []string {
	return func(items []offline.Item, err error) []string {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
		out := []string{}
		for _, it := range items {
			out = append(out, it.ID)
		}
		return out
	}
}

func put(t *testing.T, s offline.Store, items ...offline.Item) {
	t.Helper()
	for _, it := range items {
		if err := s.Put(context.Background(), it); err != nil {
			t.Fatalf("Put(%s): %v", it.ID, err)
		}
	}
}

func testOrder(t *testing.T, s offline.Store) {
	ctx := context.Background()
	put(t, s, Item("c", 2), Item("b", 1), Item("a2", 1), Item("d", 0))
	got := IDs(t)(s.List(ctx))
	if diff := cmp.Diff([]string{"d", "a2", "b", "c"}, got); diff != "" {
		t.Errorf("List order (-want +got):\n%s", diff)
	}
}

func testReplace(t *testing.T, s offline.Store) {
	ctx := context.Background()
	it := Item("a", 0)
	put(t, s, it)
	it.Attempts, it.LastStatus, it.LastError = 3, 503, "down"
	put(t, s, it)
	got, err := s.List(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]offline.Item{it}, got); diff != "" {
		t.Errorf("List after a second Put (-want +got):\n%s", diff)
	}
}

func testDelete(t *testing.T, s offline.Store) {
	ctx := context.Background()
	put(t, s, Item("a", 0), Item("b", 1))
	if err := s.Delete(ctx, "a"); err != nil {
		t.Fatal(err)
	}
	if err := s.Delete(ctx, "missing"); err != nil {
		t.Errorf("Delete(missing) = %v; want nil", err)
	}
	if diff := cmp.Diff([]string{"b"}, IDs(t)(s.List(ctx))); diff != "" {
		t.Errorf("List after Delete (-want +got):\n%s", diff)
	}
}

func testDead(t *testing.T, s offline.Store) {
	ctx := context.Background()
	put(t, s, Item("a", 0))
	d := Item("x", 5)
	d.Attempts, d.LastStatus, d.LastError = 1, 422, "The submission is invalid (rating must be 1 to 5)"
	if err := s.PutDead(ctx, d); err != nil {
		t.Fatal(err)
	}
	if err := s.PutDead(ctx, Item("w", 4)); err != nil {
		t.Fatal(err)
	}
	got, err := s.ListDead(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]offline.Item{Item("w", 4), d}, got); diff != "" {
		t.Errorf("ListDead (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]string{"a"}, IDs(t)(s.List(ctx))); diff != "" {
		t.Errorf("List holds dead letters (-want +got):\n%s", diff)
	}
	if err := s.DeleteDead(ctx, "w"); err != nil {
		t.Fatal(err)
	}
	if err := s.DeleteDead(ctx, "missing"); err != nil {
		t.Errorf("DeleteDead(missing) = %v; want nil", err)
	}
	if diff := cmp.Diff([]string{"x"}, IDs(t)(s.ListDead(ctx))); diff != "" {
		t.Errorf("ListDead after DeleteDead (-want +got):\n%s", diff)
	}
}

func testFields(t *testing.T, s offline.Store) {
	ctx := context.Background()
	it := offline.Item{ID: "0190f3e0-0000-7000-8000-000000000001", Kind: offline.KindKiosk,
		Body:  json.RawMessage(`{ "id": "x", "comment": "Très <bien> & \u00e9", "answers": {"10": 1, "2": 12345678901234567890} }`),
		Added: time.Date(2026, 11, 21, 9, 30, 15, 123456789, time.FixedZone("CET", 3600)), Attempts: 7, LastStatus: 0,
		LastError: "network error: Failed to fetch"}
	put(t, s, it)
	got, err := s.List(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 1 {
		t.Fatalf("List returned %d items; want 1", len(got))
	}
	if string(got[0].Body) != string(it.Body) {
		t.Errorf("Body = %s; want it byte for byte: %s", got[0].Body, it.Body)
	}
	if diff := cmp.Diff(it, got[0]); diff != "" {
		t.Errorf("round trip (-want +got):\n%s", diff)
	}
}

func testHas(t *testing.T, s offline.Store) {
	ctx := context.Background()
	put(t, s, Item("a", 1))
	dead := Item("d", 2)
	if err := s.PutDead(ctx, dead); err != nil {
		t.Fatal(err)
	}
	for id, want := range map[string]bool{"a": true, "d": false, "zzz": false} {
		got, err := s.Has(ctx, id)
		if err != nil || got != want {
			t.Errorf("Has(%q) = %v, %v; want %v (dead letters are not queued)", id, got, err, want)
		}
	}
	if err := s.Delete(ctx, "a"); err != nil {
		t.Fatal(err)
	}
	if got, _ := s.Has(ctx, "a"); got {
		t.Error("Has after Delete = true")
	}
}
