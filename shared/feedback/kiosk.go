package feedback

// Kiosk is a tablet paired to a location, showing one form full screen.
type Kiosk struct {
	ID         string `json:"id"`
	Name       string `json:"name"`
	LocationID string `json:"location_id"`
	FormRef
	PairedAt   Time        `json:"paired_at"`
	LastSeenAt *Time       `json:"last_seen_at"`
	QueueDepth int         `json:"queue_depth"`
	AppVersion string      `json:"app_version"`
	Online     bool        `json:"online"`
	RevokedAt  *Time       `json:"revoked_at"`
	Timing     KioskTiming `json:"timing"`
}

// KioskTiming is how a kiosk paces its visitors, in seconds.
type KioskTiming struct {
	// ResetSeconds is how long the thank-you screen stays (1 to 60).
	ResetSeconds int `json:"reset_seconds"`
	// IdleSeconds is how long a half-filled form waits before the kiosk
	// discards it (5 to 600).
	IdleSeconds int `json:"idle_seconds"`
	// IntervalSeconds is the least time between two submissions, against
	// button mashing (0 to 30).
	IntervalSeconds int `json:"interval_seconds"`
}

// DefaultKioskTiming is the timing of a kiosk paired without one.
var DefaultKioskTiming = KioskTiming{ResetSeconds: 5, IdleSeconds: 30, IntervalSeconds: 3}

func (t KioskTiming) validate(v *Validator) {
	v.Check(t.ResetSeconds >= 1 && t.ResetSeconds <= 60, "timing.reset_seconds", "must be from 1 to 60")
	v.Check(t.IdleSeconds >= 5 && t.IdleSeconds <= 600, "timing.idle_seconds", "must be from 5 to 600")
	v.Check(t.IntervalSeconds >= 0 && t.IntervalSeconds <= 30, "timing.interval_seconds", "must be from 0 to 30")
}

// MaxKioskName is the longest kiosk name, in characters.
const MaxKioskName = 200

// MaxSyncBatch is the most submissions one kiosk sync may carry.
const MaxSyncBatch = 500

// PairingCodeInput is the body of POST /kiosks/pairing-codes: the kiosk
// to be paired will show this form at this location.
type PairingCodeInput struct {
	LocationID string `json:"location_id"`
	FormRef
	Name string `json:"name"`
	// Timing paces the kiosk; DefaultKioskTiming when left out.
	Timing *KioskTiming `json:"timing,omitempty"`
}

// Validate cleans and checks the input, filling in the default timing.
func (in *PairingCodeInput) Validate() error {
	var v Validator
	checkRefID(&v, &in.LocationID, "location_id", "is required")
	in.FormRef.Validate(&v)
	v.checkText(&in.Name, "name", MaxKioskName, false)
	if in.Timing == nil {
		t := DefaultKioskTiming
		in.Timing = &t
	}
	in.Timing.validate(&v)
	return v.Err()
}

// PairingCode is a short-lived code an admin types into a kiosk to pair it.
type PairingCode struct {
	Code      string `json:"code"`
	ExpiresAt Time   `json:"expires_at"`
}

// PairRequest is the body of POST /kiosk/pair.
type PairRequest struct {
	Code string `json:"code"`
}

// Pairing answers POST /kiosk/pair: the kiosk keeps Credential and sends it
// as a Bearer token to the /kiosk endpoints. It is shown only once.
type Pairing struct {
	Kiosk      Kiosk  `json:"kiosk"`
	Credential string `json:"credential"`
}

// SyncRequest is the body of POST /kiosk/sync.
type SyncRequest struct {
	Submissions []Submission `json:"submissions"`
	// QueueDepth, when set, is how many submissions waited on the kiosk
	// when it sent this batch, the batch included: what is left once the
	// batch is answered is the kiosk's queue depth until its next
	// heartbeat.
	QueueDepth *int `json:"queue_depth,omitempty"`
}

// SyncResult is the outcome of one synced submission: Status is the HTTP
// status the same submission would get from POST /q/{code} (201, 200,
// 409, 422, ...), and Problem explains a rejection.
type SyncResult struct {
	ID      string   `json:"id"`
	Status  int      `json:"status"`
	Problem *Problem `json:"problem,omitempty"`
}

// SyncResponse answers POST /kiosk/sync with one result per submission, in
// the order they were sent.
type SyncResponse struct {
	Results []SyncResult `json:"results"`
}

// Heartbeat is the body of POST /kiosk/heartbeat.
type Heartbeat struct {
	QueueDepth int    `json:"queue_depth"`
	AppVersion string `json:"app_version"`
}

// KioskConfig answers GET /kiosk/config: the kiosk and the form it shows.
type KioskConfig struct {
	Kiosk Kiosk    `json:"kiosk"`
	Form  FormView `json:"form"`
}

// KioskPresence is the data of the kiosk.online and kiosk.offline
// events: the kiosk, and what it last reported. LastSeenAt is the
// contact that brought it online (kiosk.online), or its last contact
// before it fell silent or was unpaired (kiosk.offline); AppVersion is
// "" until a heartbeat reports one.
type KioskPresence struct {
	KioskID    string `json:"kiosk_id"`
	LocationID string `json:"location_id"`
	Name       string `json:"name"`
	LastSeenAt Time   `json:"last_seen_at"`
	QueueDepth int    `json:"queue_depth"`
	AppVersion string `json:"app_version"`
}
