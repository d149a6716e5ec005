package feedback

import (
	"regexp"
	"strings"
)

// Audit actions of the platform owner's pages.
const (
	AuditWorkspaceCreated  = "workspace.created"
	AuditFederationAdded   = "federation.added"
	AuditFederationRemoved = "federation.removed"
)

// MaxSlug is the length limit of a workspace's slug.
const MaxSlug = 40

// slugPattern is a workspace's slug: lower-case ASCII letters and digits,
// single hyphens between them, so that /w/{slug}/ needs no escaping.
var slugPattern = regexp.MustCompile(`^[a-z0-9]+(-[a-z0-9]+)*$`)

// ValidSlug reports whether s can be a workspace's slug.
func ValidSlug(s string) bool { return len(s) <= MaxSlug && slugPattern.MatchString(s) }

// Slugify makes a workspace's slug from its name: its ASCII letters and
// digits in lower case, every other run of characters a hyphen, at most
// MaxSlug characters; "workspace" when nothing is left.
func Slugify(name string) string {
	var b strings.Builder
	dash := false
	for _, r := range strings.ToLower(name) {
		if r >= 'a' && r <= 'z' || r >= '0' && r <= '9' {
			b.WriteRune(r)
			dash = false
		} else if !dash && b.Len() > 0 {
			b.WriteByte('-')
			dash = true
		}
	}
	s := strings.Trim(b.String(), "-")
	if len(s) > MaxSlug {
		s = strings.Trim(s[:MaxSlug], "-")
	}
	if s == "" {
		s = "workspace"
	}
	return s
}

// WorkspaceInput is the body of POST /workspaces.
type WorkspaceInput struct {
	Name string `json:"name"`
	// Slug is the workspace's place in the dashboard, /w/{slug}/; made
	// from the name when empty.
	Slug string `json:"slug,omitempty"`
}

// Validate cleans the name (1 to 100 characters of text) and checks the
// slug, which it makes from the name when none is given.
func (in *WorkspaceInput) Validate() error {
	var v Validator
	v.checkText(&in.Name, "name", MaxWorkspaceName, true)
	if in.Slug = strings.TrimSpace(in.Slug); in.Slug == "" && v.Valid() {
		in.Slug = Slugify(in.Name)
	}
	v.Check(ValidSlug(in.Slug), "slug",
		"must be at most 40 lower-case letters and digits, with single hyphens between them")
	return v.Err()
}

// MaxWorkspaceName is the length limit of a workspace's name.
const MaxWorkspaceName = 100
