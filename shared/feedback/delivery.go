package feedback

// DeliveryStatus is the state of one event's delivery to one subscription.
type DeliveryStatus string

// The delivery states.
const (
	DeliveryPending   DeliveryStatus = "pending"   // waiting for its next attempt
	DeliverySucceeded DeliveryStatus = "succeeded" // the receiver answered 2xx
	DeliveryFailed    DeliveryStatus = "failed"    // given up: the receiver refused it (4xx, 410) or the schedule ran out
)

// WebhookDelivery is one event on its way to one subscription, with every
// attempt made. Its ID is the webhook-id header of every attempt, so a
// receiver can drop a repeat.
type WebhookDelivery struct {
	ID             string            `json:"id"`
	WebhookID      string            `json:"webhook_id"`
	EventID        string            `json:"event_id"`
	EventType      string            `json:"event_type"`
	Status         DeliveryStatus    `json:"status"`
	Attempts       int               `json:"attempts"`
	NextAttemptAt  *Time             `json:"next_attempt_at"`
	LastStatusCode int               `json:"last_status_code"`
	LastError      string            `json:"last_error"`
	CreatedAt      Time              `json:"created_at"`
	DeliveredAt    *Time             `json:"delivered_at"`
	AttemptLog     []DeliveryAttempt `json:"attempt_log"`
}

// DeliveryAttempt is one HTTP request of a delivery.
type DeliveryAttempt struct {
	N          int    `json:"n"`
	At         Time   `json:"at"`
	StatusCode int    `json:"status_code"` // 0 when no answer came
	DurationMS int    `json:"duration_ms"`
	Error      string `json:"error"`
	// NextAttemptAt is when the next attempt was scheduled after this one;
	// null when this one succeeded or was the last.
	NextAttemptAt *Time `json:"next_attempt_at"`
}
