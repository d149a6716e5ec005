package feedback

import (
	"encoding/base64"
	"encoding/json"
	"slices"
)

// Event kinds. Subscriptions name them; "*" means all.
const (
	EventHygieneSubmissionCreated = "hygiene_submission.created"
	EventReviewResponseCreated    = "review_response.created"
	EventSurveyResponseCreated    = "survey_response.created"
	EventReviewStatusChanged      = "review.status_changed"
	EventAlertTriggered           = "alert.triggered"
	EventAlertAcknowledged        = "alert.acknowledged"
	EventAlertResolved            = "alert.resolved"
	EventKioskOnline              = "kiosk.online"
	EventKioskOffline             = "kiosk.offline"
	EventWebhookTest              = "webhook.test"
	EventWebhookDisabled          = "webhook.disabled"
)

// EventKinds lists every event kind.
var EventKinds = []string{
	EventHygieneSubmissionCreated, EventReviewResponseCreated, EventSurveyResponseCreated,
	EventReviewStatusChanged, EventAlertTriggered, EventAlertAcknowledged, EventAlertResolved, EventKioskOnline, EventKioskOffline,
	EventWebhookTest, EventWebhookDisabled,
}

// KnownEvent reports whether name is an event kind.
func KnownEvent(name string) bool { return slices.Contains(EventKinds, name) }

// Limits of one read of the outbox (GET /events).
const (
	DefaultEventLimit = 100
	MaxEventLimit     = 1000
)

// Event is the envelope of everything the outbox delivers, to webhooks and
// to the live feed. Seq orders the events of one workspace: it only
// increases, may skip numbers, and an event becomes readable only once no
// event with a smaller number can still commit, so a reader can resume
// after the last one it saw without missing one.
type Event struct {
	ID          string          `json:"id"`
	Type        string          `json:"type"`
	Timestamp   Time            `json:"timestamp"`
	WorkspaceID string          `json:"workspace_id"`
	Seq         int64           `json:"seq"`
	Data        json.RawMessage `json:"data"`
}

// StatusChange is the data of a review.status_changed event.
type StatusChange struct {
	Review         Review `json:"review"`
	PreviousStatus Status `json:"previous_status"`
}

func decodedLen(b64 string) (int, error) {
	b, err := base64.StdEncoding.DecodeString(b64)
	return len(b), err
}

// EventList is the answer of GET /events: the events after the requested
// position and the position to ask after next time.
type EventList struct {
	Data []Event `json:"data"`
	Next int64   `json:"next"`
}
