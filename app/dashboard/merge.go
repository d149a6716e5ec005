package dashboard

import (
	"context"
	"sync"
	"time"

	"github.com/feedbackhq/feedback/shared/feedback"
)

// The overview reads its list from several REST lists at once: the
// hygiene reports and the responses of each review and survey. Each is
// in list order and pages by cursor, and every cursor is a position in
// the one list order, so the same cursor starts a page of each.

// source is one REST list the overview reads.
type source struct {
	kind   string
	formID string // the review or survey; "" for the hygiene reports
	// read returns one page at p (PerPage, After, LocationID), in list
	// order, and the API's cursor of the page after it (nil for none).
	read func(ctx context.Context, p feedback.ListParams) ([]feedItem, *feedback.Cursor, error)
}

// sourcePage is one page of one source, and where the source goes on
// (nil when the page was its last).
type sourcePage struct {
	items []feedItem
	next  *feedback.Cursor
}

// merge combines pages of several sources, all read from one position,
// into list order. It keeps only the items that every source has been
// read past: a source that goes on may have more items right after its
// page, so the newest of the sources' next positions bounds what may be
// shown, and the next read starts there. It returns the kept items that
// keep accepts, and the next position (nil when every source is
// exhausted).
//
// The API's cursors are exact, but the items' times are rounded to the
// millisecond: the items of the bound's millisecond are all kept, and
// those the next read brings again are skipped by the feed as repeats.
func merge(pages []sourcePage, keep func(*feedItem) bool) (out []feedItem, next *feedback.Cursor) {
	for _, p := range pages {
		if p.next != nil && (next == nil || before(*p.next, *next)) {
			next = p.next
		}
	}
	var bound time.Time
	if next != nil {
		bound = next.CreatedAt.Truncate(time.Millisecond)
	}
	for _, p := range pages {
		for _, it := range p.items {
			if next != nil && it.CreatedAt.Before(bound) {
				break // past the bound; the next read brings it
			}
			if keep(&it) {
				out = append(out, it)
			}
		}
	}
	return out, next
}

// readAll reads one page of every source at once, from after (nil for
// the newest), n items each, at the location (or every location).
func readAll(ctx context.Context, sources []source, after *feedback.Cursor, n int, location string) ([]sourcePage, error) {
	pages := make([]sourcePage, len(sources))
	errs := make([]error, len(sources))
	var wg sync.WaitGroup
	for i, s := range sources {
		wg.Go(func() {
			items, next, err := s.read(ctx, feedback.ListParams{Page: 1, PerPage: n, After: after, LocationID: location})
			pages[i], errs[i] = sourcePage{items: items, next: next}, err
		})
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return nil, err
		}
	}
	return pages, nil
}

// nextOf returns the cursor of the page after a page with meta m, whose
// last item is last (nil when the page was the last).
func nextOf(m feedback.Meta, last *feedItem) *feedback.Cursor {
	if m.NextCursor == "" {
		return nil
	}
	if c, err := feedback.ParseCursor(m.NextCursor); err == nil {
		return &c
	}
	return olderCursor(last.key()) // not a cursor this client reads: one it makes
}
