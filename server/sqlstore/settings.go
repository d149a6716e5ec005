package sqlstore

import (
	"context"
	"time"
	_ "time/tzdata" // time zones without the system's zoneinfo

	"github.com/feedbackhq/feedback/shared/feedback"
)

// WorkspaceSettings returns a workspace's settings. Returns
// feedback.ENotFound if the workspace does not exist.
func (s *Store) WorkspaceSettings(ctx context.Context, workspaceID string) (_ *feedback.WorkspaceSettings, err error) {
	defer wrap(&err, "WorkspaceSettings(%s)", workspaceID)
	if !canonical(&workspaceID) {
		return nil, notFound("workspace", workspaceID)
	}
	var st feedback.WorkspaceSettings
	err = s.db.QueryRow(ctx, `SELECT time_zone FROM workspaces WHERE id = $1`, workspaceID).Scan(&st.TimeZone)
	if err != nil {
		return nil, orNotFound(err, "workspace", workspaceID)
	}
	return &st, nil
}

// UpdateWorkspaceSettings stores in as a workspace's settings and returns
// them. A time zone that is not an IANA name time.LoadLocation knows is
// feedback.EValidation; an unknown workspace feedback.ENotFound.
func (s *Store) UpdateWorkspaceSettings(ctx context.Context, workspaceID string, in feedback.WorkspaceSettings) (_ *feedback.WorkspaceSettings, err error) {
	defer wrap(&err, "UpdateWorkspaceSettings(%s)", workspaceID)
	if err := CheckTimeZone(in.TimeZone); err != nil {
		return nil, err
	}
	if !canonical(&workspaceID) {
		return nil, notFound("workspace", workspaceID)
	}
	n, err := s.db.Exec(ctx, `UPDATE workspaces SET time_zone = $2 WHERE id = $1`, workspaceID, in.TimeZone)
	if err != nil {
		return nil, err
	}
	if n == 0 {
		return nil, notFound("workspace", workspaceID)
	}
	return &in, nil
}

// CheckTimeZone returns feedback.EValidation unless name is an IANA time
// zone name ("Europe/Berlin", "UTC").
func CheckTimeZone(name string) error {
	if _, err := time.LoadLocation(name); err != nil || name == "" || name == "Local" {
		return feedback.Errorf(feedback.EValidation, "time_zone must be an IANA time zone name such as Europe/Berlin, not %q.", name)
	}
	return nil
}
