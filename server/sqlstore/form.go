package sqlstore

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/feedbackhq/feedback/shared/feedback"
)

// checkForm canonicalises the location and form ids of a poster or
// pairing code and returns feedback.ENotFound, naming each missing one as
// an invalid param, unless the location (not deleted) and the review or
// survey exist in the workspace.
func checkForm(ctx context.Context, tx Conn, workspaceID string, locationID *string, f *feedback.FormRef) error {
	refs := []struct {
		param string
		id    *string
		query string
	}{
		{"location_id", locationID, `SELECT 1 FROM locations WHERE workspace_id = $1 AND id = $2 AND deleted_at IS NULL`},
		{"review_id", &f.ReviewID, `SELECT 1 FROM reviews WHERE workspace_id = $1 AND id = $2`},
		{"survey_id", &f.SurveyID, `SELECT 1 FROM surveys WHERE workspace_id = $1 AND id = $2`},
	}
	var missing []feedback.InvalidParam
	for _, ref := range refs {
		if ref.param != "location_id" && *ref.id == "" {
			continue
		}
		ok, err := exists(ctx, tx, ref.query, workspaceID, ref.id)
		if err != nil {
			return err
		}
		if !ok {
			missing = append(missing, feedback.InvalidParam{Name: ref.param, Reason: "does not exist in the workspace"})
		}
	}
	if len(missing) == 0 {
		return nil
	}
	return &feedback.Error{Code: feedback.ENotFound, Params: missing,
		Message: fmt.Sprintf("The %s named by %s does not exist.", strings.TrimSuffix(missing[0].Name, "_id"), missing[0].Name)}
}

// exists reports whether query finds a row for workspaceID and *id,
// canonicalising *id first; an id that is not a UUID names nothing.
func exists(ctx context.Context, c Conn, query, workspaceID string, id *string) (bool, error) {
	if !canonical(id) {
		return false, nil
	}
	var found int
	err := c.QueryRow(ctx, query, workspaceID, *id).Scan(&found)
	if errors.Is(err, ErrNoRows) {
		return false, nil
	}
	return err == nil, err
}

// lifecycle points at the fields that reviews and surveys share.
type lifecycle struct {
	kind            string // "review" or "survey", for messages
	title           *string
	status          *feedback.Status
	statusChangedAt *feedback.Time
	updatedAt       *feedback.Time
}

// apply sets the non-nil title and status at now and reports whether
// anything changed and, for a status change, the previous status. A
// status change must follow the state machine; setting the current
// status changes nothing.
func (l lifecycle) apply(title *string, status *feedback.Status, now time.Time) (changed bool, prev feedback.Status, err error) {
	if status != nil && *status != *l.status {
		if !l.status.CanBecome(*status) {
			return false, "", feedback.Errorf(feedback.EInvalidTransition,
				"A %s in status %s cannot become %s; it can become %s.", l.kind, *l.status, *status, nextStates(*l.status))
		}
		prev, *l.status, *l.statusChangedAt = *l.status, *status, feedback.NewTime(now)
		changed = true
	}
	if title != nil && *title != *l.title {
		*l.title = *title
		changed = true
	}
	if changed {
		*l.updatedAt = feedback.NewTime(now)
	}
	return changed, prev, nil
}

// nextStates lists the states s can become, for error messages.
func nextStates(s feedback.Status) string {
	var next []string
	for _, t := range []feedback.Status{feedback.StatusDraft, feedback.StatusActive, feedback.StatusPaused,
		feedback.StatusClosed, feedback.StatusArchived} {
		if s.CanBecome(t) {
			next = append(next, string(t))
		}
	}
	if len(next) == 0 {
		return "nothing else"
	}
	return strings.Join(next, " or ")
}
