package feedback

// The live stream (GET /api/v1/live) sends events as their envelope
// ([Event]) and these control messages, whose types begin with "live.".
const (
	// LiveReady is sent once the replay is done: the stream is live from
	// Seq on, and a client resumes after the largest seq it has seen,
	// Seq or later.
	LiveReady = "live.ready"
	// LiveReset is sent when the requested position cannot be served
	// (too far behind, or ahead of every event): the client reloads its
	// view; the stream goes on from Seq.
	LiveReset = "live.reset"
)

// LiveControl is a control message of the live stream.
type LiveControl struct {
	Type string `json:"type"`
	Seq  int64  `json:"seq"`
}
