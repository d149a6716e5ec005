package dashboard

import (
	"time"

	"github.com/feedbackhq/feedback/shared/feedback"
)

// The overview's list of feedback: the newest hygiene reports, review
// responses and survey responses of the workspace, in one list, newest
// first, in the REST API's list order (created_at desc, id desc; ids are
// unique across the three kinds). It is bounded: new items push the
// oldest out, and "Show older" pages them back in.

// Kinds of feedback, as the filter names them.
const (
	kindHygiene = "hygiene"
	kindReview  = "review"
	kindSurvey  = "survey"
)

// feedItem is one piece of feedback as the overview shows it.
type feedItem struct {
	ID         string
	Kind       string
	FormID     string // the review or survey
	LocationID string
	Rating     int    // 1 to 5; 0 for a survey response
	Comment    string // the comment, or a survey's first text answer
	Answers    int    // the number of a survey response's answers
	CreatedAt  time.Time
	// Arrived is when the item arrived live; zero for an item read from
	// a list. It stands out for a moment after.
	Arrived time.Time
}

// key is the item's place in list order.
func (it *feedItem) key() feedback.Cursor { return feedback.Cursor{CreatedAt: it.CreatedAt, ID: it.ID} }

// before reports whether a comes before b in list order (newer first).
func before(a, b feedback.Cursor) bool {
	if !a.CreatedAt.Equal(b.CreatedAt) {
		return a.CreatedAt.After(b.CreatedAt)
	}
	return a.ID > b.ID
}

// defaultFeedLimit is how many items the overview keeps.
const defaultFeedLimit = 200

// feed is the bounded list. Its zero value is an empty list of
// defaultFeedLimit items.
type feed struct {
	items []feedItem // list order
	ids   map[string]bool
	limit int // 0 for defaultFeedLimit
	// older is where the next older page starts, when the server may
	// have items older than the list; nil when it has none.
	older *feedback.Cursor
}

func newFeed(limit int) *feed { return &feed{ids: map[string]bool{}, limit: limit} }

// reset empties the list; older is where its first page ends.
func (f *feed) reset(older *feedback.Cursor) {
	f.items, f.ids, f.older = f.items[:0], map[string]bool{}, older
}

// add puts it at its place unless the list holds it already, or it is
// older than a full list, and reports whether it did. The oldest item of
// a full list is dropped, and "Show older" brings it back.
func (f *feed) add(it feedItem) bool {
	if f.ids[it.ID] {
		return false
	}
	if f.ids == nil {
		f.ids = map[string]bool{}
	}
	if f.limit == 0 {
		f.limit = defaultFeedLimit
	}
	k := it.key()
	i := len(f.items)
	for i > 0 && before(k, f.items[i-1].key()) {
		i--
	}
	if i == f.limit {
		f.dropFrom(i, k)
		return false
	}
	f.items = append(f.items, feedItem{})
	copy(f.items[i+1:], f.items[i:])
	f.items[i] = it
	f.ids[it.ID] = true
	if len(f.items) > f.limit {
		f.dropFrom(f.limit, f.items[f.limit].key())
	}
	return true
}

// dropFrom drops the items from index i, the first of which (or the
// item refused at i) has key k: the next older page starts there.
func (f *feed) dropFrom(i int, k feedback.Cursor) {
	for _, it := range f.items[i:] {
		delete(f.ids, it.ID)
	}
	clear(f.items[i:])
	f.items = f.items[:i]
	if f.older == nil || before(k, *f.older) {
		f.older = olderCursor(k)
	}
}

// olderCursor returns a cursor that pages in k and every item after it.
// The API writes times to the millisecond but keeps microseconds, so an
// item's key from JSON can sort before its stored key: the cursor ends
// its millisecond instead, and the items of that millisecond that the
// list holds already come back and are skipped as repeats.
func olderCursor(k feedback.Cursor) *feedback.Cursor {
	t := k.CreatedAt.Truncate(time.Millisecond).Add(time.Millisecond - time.Microsecond)
	return &feedback.Cursor{CreatedAt: t, ID: maxID}
}

// maxID sorts after every id.
const maxID = "ffffffff-ffff-ffff-ffff-ffffffffffff"

// len returns the number of items.
func (f *feed) len() int { return len(f.items) }
