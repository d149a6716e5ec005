package feedback

// Status is the life-cycle state of a review or a survey.
type Status string

// The states. Only an active form accepts new responses.
const (
	StatusDraft    Status = "draft"
	StatusActive   Status = "active"
	StatusPaused   Status = "paused"
	StatusClosed   Status = "closed"
	StatusArchived Status = "archived"
)

// transitions lists the allowed moves besides "any state to archived":
// draft -> active <-> paused, and active or paused -> closed.
var transitions = map[Status][]Status{
	StatusDraft:  {StatusActive},
	StatusActive: {StatusPaused, StatusClosed},
	StatusPaused: {StatusActive, StatusClosed},
}

// Valid reports whether s is one of the defined states.
func (s Status) Valid() bool {
	switch s {
	case StatusDraft, StatusActive, StatusPaused, StatusClosed, StatusArchived:
		return true
	}
	return false
}

// CanBecome reports whether the state machine allows the move from s to
// next. Staying in the same state is not a move and reports false.
func (s Status) CanBecome(next Status) bool {
	if s == next || !next.Valid() {
		return false
	}
	if next == StatusArchived {
		return true
	}
	for _, t := range transitions[s] {
		if t == next {
			return true
		}
	}
	return false
}
