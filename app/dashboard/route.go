package dashboard

import (
	"regexp"
	"strings"
)

// Paths of the dashboard. A workspace's pages live under /w/{slug}/; the
// user's own settings, which belong to no workspace, under /settings/.
const (
	// WorkspacePattern matches a workspace's dashboard and every path
	// below it, with the slugs and segments the server's sign-in accepts
	// as a place to return to: lower-case letters, digits and hyphens,
	// so that a path can be written into a link as it is.
	WorkspacePattern = `^/w/[a-z0-9][a-z0-9-]{0,62}/([a-z0-9-]+/?)*$`
	// SecurityPath is Settings > Security: the active sessions.
	SecurityPath = "/settings/security"
	// SettingsPattern matches Global Settings and every path below it;
	// those without a page yet answer "not found" in the dashboard.
	SettingsPattern = `^/settings(/[a-z0-9-]+)*/?$`
)

var (
	workspacePath = regexp.MustCompile(WorkspacePattern)
	settingsPath  = regexp.MustCompile(SettingsPattern)
)

// section is the page of the dashboard a path names.
type section int

const (
	overview section = iota // /w/{slug}/
	security                // /settings/security
	missing                 // a path below /w/{slug}/ or /settings that has no page yet
)

// parsePath returns the workspace slug ("" for the settings) and the
// section of a dashboard path, and reports whether path is one.
func parsePath(path string) (slug string, s section, ok bool) {
	switch {
	case path == SecurityPath:
		return "", security, true
	case settingsPath.MatchString(path):
		return "", missing, true
	case !workspacePath.MatchString(path):
		return "", overview, false
	}
	slug, rest, _ := strings.Cut(strings.TrimPrefix(path, "/w/"), "/")
	if rest != "" {
		return slug, missing, true
	}
	return slug, overview, true
}

// overviewPath returns the overview path of the workspace slug.
func overviewPath(slug string) string { return "/w/" + slug + "/" }
