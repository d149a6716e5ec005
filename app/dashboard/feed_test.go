package dashboard

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/feedbackhq/feedback/shared/feedback"
)

// t0 is the time of the items of these tests.
var t0 = time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)

// item returns an item of kind created sec seconds after t0, with an id
// that sorts by n.
func item(kind string, n int, sec float64) feedItem {
	return feedItem{ID: fmt.Sprintf("0197a5f0-0000-7000-8000-%012d", n), Kind: kind, LocationID: "l1",
		CreatedAt: t0.Add(time.Duration(sec * float64(time.Second)))}
}

// ids lists the items' numbers in order.
func ids(items []feedItem) string {
	var b []string
	for _, it := range items {
		b = append(b, strings.TrimLeft(it.ID[24:], "0"))
	}
	return strings.Join(b, " ")
}

func TestFeedOrderAndRepeats(t *testing.T) {
	f := newFeed(5)
	for _, it := range []feedItem{item(kindHygiene, 1, 1), item(kindReview, 3, 3), item(kindSurvey, 2, 2), item(kindHygiene, 4, 3)} {
		if !f.add(it) {
			t.Errorf("item %s was not added", it.ID)
		}
	}
	if f.add(item(kindReview, 3, 3)) {
		t.Error("a repeated item was added")
	}
	// Newest first; of two at the same time, the larger id first.
	if got := ids(f.items); got != "4 3 2 1" {
		t.Errorf("order %s, want 4 3 2 1", got)
	}
	if f.older != nil {
		t.Errorf("older = %v with nothing dropped", f.older)
	}
}

// TestFeedBounded: a full list drops its oldest item for a newer one and
// refuses an older one; the next older page starts at what it dropped.
func TestFeedBounded(t *testing.T) {
	f := newFeed(3)
	for n := 1; n <= 3; n++ {
		f.add(item(kindHygiene, n, float64(n)))
	}
	if !f.add(item(kindHygiene, 4, 4)) || ids(f.items) != "4 3 2" {
		t.Fatalf("after a fourth item: %s, want 4 3 2", ids(f.items))
	}
	if f.older == nil || !f.older.CreatedAt.Equal(t0.Add(time.Second+time.Millisecond-time.Microsecond)) || f.older.ID != maxID {
		t.Errorf("older = %+v; want the end of item 1's millisecond", f.older)
	}
	if f.add(item(kindHygiene, 0, 0.5)) {
		t.Error("an item older than a full list was added")
	}
	if f.ids[item(kindHygiene, 1, 1).ID] || len(f.ids) != 3 {
		t.Errorf("the dropped item is still remembered: %v", f.ids)
	}
	// Memory stays flat: a thousand more items keep three.
	for n := 5; n < 1005; n++ {
		f.add(item(kindReview, n, float64(n)))
	}
	if len(f.items) != 3 || len(f.ids) != 3 || cap(f.items) > 8 {
		t.Errorf("after 1000 items: %d items, %d ids, capacity %d", len(f.items), len(f.ids), cap(f.items))
	}
}

func TestMerge(t *testing.T) {
	all := func(*feedItem) bool { return true }
	at := func(it feedItem) *feedback.Cursor { k := it.key(); return &k }
	hygiene := sourcePage{items: []feedItem{item(kindHygiene, 9, 9), item(kindHygiene, 6, 6), item(kindHygiene, 4, 4)}}
	hygiene.next = at(hygiene.items[2])
	review := sourcePage{items: []feedItem{item(kindReview, 8, 8), item(kindReview, 7, 7), item(kindReview, 5, 5)}}
	review.next = at(review.items[2])
	survey := sourcePage{items: []feedItem{item(kindSurvey, 3, 3)}}

	// The review list may hold items between 5 and 4 that it has not
	// sent: nothing older than 5 is shown yet.
	got, next := merge([]sourcePage{hygiene, review, survey}, all)
	if ids := ids(got); ids != "9 6 8 7 5" {
		t.Errorf("merged %s, want 9 6 8 7 5 (in any order the feed sorts)", ids)
	}
	if next != review.next {
		t.Errorf("next = %+v, want the review list's, %+v", next, review.next)
	}

	// Exhausted lists: everything, and no next page.
	review.next, hygiene.next = nil, nil
	got, next = merge([]sourcePage{hygiene, review, survey}, func(it *feedItem) bool { return it.Kind != kindReview })
	if ids := ids(got); ids != "9 6 4 3" || next != nil {
		t.Errorf("merged %s, next %v; want 9 6 4 3 and none", ids, next)
	}
}

// TestFeedPagesOlder: reading older pages through the merged cursors
// shows every item exactly once, even when more items than a page share
// a millisecond (a kiosk's batch) and the API rounds their times to it.
func TestFeedPagesOlder(t *testing.T) {
	var stored []feedItem // the server's items, in list order, with microseconds
	for n := 60; n >= 1; n-- {
		sec := float64(n/4) + float64(n%4)*0.0001
		if n > 40 {
			sec = 11 + float64(n)*0.000001 // twenty in one millisecond, ten of each kind
		}
		stored = append(stored, item([]string{kindHygiene, kindReview}[n%2], n, sec))
	}
	// read returns up to 5 items of kind after c, as the API would: with
	// their times rounded to the millisecond, and the exact cursor of
	// the next page when the page is full.
	read := func(kind string, c *feedback.Cursor) sourcePage {
		var p sourcePage
		for _, it := range stored {
			if it.Kind == kind && (c == nil || before(*c, it.key())) && len(p.items) < 5 {
				if len(p.items) == 4 {
					k := it.key()
					p.next = &k
				}
				it.CreatedAt = it.CreatedAt.Truncate(time.Millisecond)
				p.items = append(p.items, it)
			}
		}
		if len(p.items) < 5 {
			p.next = nil
		}
		return p
	}
	f := newFeed(100)
	var c *feedback.Cursor
	for round := 0; ; round++ {
		items, next := merge([]sourcePage{read(kindHygiene, c), read(kindReview, c)}, func(*feedItem) bool { return true })
		for _, it := range items {
			f.add(it)
		}
		if next == nil {
			break
		}
		if round > 40 {
			t.Fatal("the pages never end")
		}
		c = next
	}
	if len(f.items) != 60 {
		t.Errorf("%d items after paging, want 60: %s", len(f.items), ids(f.items))
	}
}
