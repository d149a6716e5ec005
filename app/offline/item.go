package offline

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"
)

// Kind says how an [Item] is delivered.
type Kind string

// The kinds of item.
const (
	// KindVisitor items are sent alone, as the JSON body of POST Item.URL
	// (POST /q/{code}).
	KindVisitor Kind = "visitor"
	// KindKiosk items are sent in batches to the kiosk sync endpoint, with
	// the kiosk's credential; their URL is not used.
	KindKiosk Kind = "kiosk"
)

// Item is one queued submission.
type Item struct {
	// ID is the submission's id, made when the form was rendered. It is
	// the item's key in the store.
	ID   string
	Kind Kind
	// URL is where a visitor item is posted, such as /q/{code}.
	URL string
	// Body is the JSON submission.
	Body json.RawMessage
	// Added is when the item was queued; it orders the queue.
	Added time.Time
	// Attempts counts the sends of this item.
	Attempts int
	// LastStatus is the HTTP status of the last attempt, 0 after a
	// network error.
	LastStatus int
	// LastError explains the last failed attempt: the problem detail of a
	// rejection or the network error.
	LastError string
}

// ErrInvalidItem is returned by [Queue.Add] for an item that could never
// be sent: no id, an unknown kind, a visitor item without URL or a body
// that is not JSON.
var ErrInvalidItem = errors.New("offline: invalid item")

func (it *Item) validate() error {
	switch {
	case it.ID == "":
		return fmt.Errorf("%w: no id", ErrInvalidItem)
	case it.Kind != KindVisitor && it.Kind != KindKiosk:
		return fmt.Errorf("%w: unknown kind %q", ErrInvalidItem, it.Kind)
	case it.Kind == KindVisitor && it.URL == "":
		return fmt.Errorf("%w: a visitor item needs a URL", ErrInvalidItem)
	case !json.Valid(it.Body):
		return fmt.Errorf("%w: the body is not JSON", ErrInvalidItem)
	}
	return nil
}

// Store keeps the queued items and the dead letters; it must survive a
// reload to be of any use. Implementations must be safe for concurrent
// use: [Memory] here, IndexedDB and localStorage in app/browser.
type Store interface {
	// Put inserts it into the queue or replaces the item with its ID.
	Put(ctx context.Context, it Item) error
	// Delete removes the queued item with id; a missing id is no error.
	Delete(ctx context.Context, id string) error
	// List returns the queued items, oldest first (by Added, then ID).
	List(ctx context.Context) ([]Item, error)
	// Has reports whether an item with id is queued, without reading the
	// others: a kiosk may hold thousands.
	Has(ctx context.Context, id string) (bool, error)
	// PutDead inserts it into the dead-letter list or replaces the dead
	// letter with its ID.
	PutDead(ctx context.Context, it Item) error
	// ListDead returns the dead letters, oldest first.
	ListDead(ctx context.Context) ([]Item, error)
	// DeleteDead removes the dead letter with id; a missing id is no error.
	DeleteDead(ctx context.Context, id string) error
}

// Response is what the service answered.
type Response struct {
	Status int
	// Reset is when a rate limit (429) ends, from Retry-After or
	// X-RateLimit-Reset; zero when the response said nothing. See [ResetAt].
	Reset time.Time
	Body  []byte
}

// Sender performs one HTTP request. A network error, a timeout or an
// aborted request is an error; any HTTP answer, even a 500, is a Response.
type Sender interface {
	Send(ctx context.Context, method, url string, headers map[string]string, body []byte) (Response, error)
}

// Stats is the queue's state for the UI ("saved, 3 waiting").
type Stats struct {
	// Pending counts the items waiting to be sent.
	Pending int
	// Dead counts the dead letters.
	Dead int
	// NextTry is when the queue will try again after a failure or a rate
	// limit; zero when no retry is scheduled.
	NextTry time.Time
	// Unpaired reports that the kiosk has no credential or the service
	// refused it (401): kiosk items wait until the kiosk is paired again.
	Unpaired bool
	// LastError explains the last failure; empty after a clean pass.
	LastError string
}

// Report says what one [Queue.Flush] pass did.
type Report struct {
	// Requests counts the HTTP requests sent.
	Requests int
	// Removed counts the items the service has: 2xx, or a 409
	// idempotency conflict.
	Removed int
	// Dead counts the items moved to the dead-letter list.
	Dead int
	// Kept counts the items tried and kept for a later pass.
	Kept int
	// NextTry is when the next pass is due after a failure or a rate
	// limit; zero when the pass went through.
	NextTry time.Time
	// Unpaired reports that kiosk items were held back for want of a
	// valid credential.
	Unpaired bool
}
