package visitor

import (
	"context"
	"time"
)

// Outbox is the device's queue of submissions. The app sets it when it
// starts in the browser (see app/pwa); the server never needs one.
type Outbox interface {
	// Submit stores the JSON submission body for url under id on the
	// device and then tries to send it. It returns once the submission is
	// stored, which is when the visitor may be told it is saved.
	Submit(ctx context.Context, url, id string, body []byte) error
	// State reports what became of the submission id.
	State(id string) SendState
	// Pending returns how many submissions wait on this device.
	Pending() int
	// Watch calls f after every change of the queue until cancel is called.
	Watch(f func()) (cancel func())
	// Refused lists the submissions of this device the service refused.
	Refused() []Refusal
	// Discard removes a refused submission from the device for good.
	Discard(ctx context.Context, id string) error
}

// Refusal is a submission the service refused, kept on the device so
// that nothing disappears without the visitor seeing it.
type Refusal struct {
	ID     string
	Added  time.Time
	Status int
	Reason string
}

// SendState is what became of one submission.
type SendState int

// The states of a submission.
const (
	Waiting SendState = iota // stored on the device, not yet accepted by the server
	Sent                     // accepted by the server
	Failed                   // refused by the server; kept in the device's dead-letter list
)

var outbox Outbox

// UseOutbox sets the queue the page submits to.
func UseOutbox(o Outbox) { outbox = o }
