package dashboard

import (
	"regexp"
	"strings"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"github.com/feedbackhq/feedback/shared/feedback"
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

// route is a page of the dashboard: where it is, its title, and its
// component, made from the shell's state.
type route struct {
	name      string
	workspace bool   // the page is below /w/{slug}/, else below /settings/
	path      string // the rest of the path: "" for /w/{slug}/
	title     string // the document title
	nav       string // the text of its link in the navigation; "" for none
	group     string // the navigation's group the link is in
	owner     bool   // only a platform owner has a link to it
	// param: the route's path is followed by one more segment, the id
	// of what the page shows (Shell.param); "alerts/{id}".
	param bool
	page  func(s *Shell) app.UI
}

// routes is the dashboard's route table, in the order of the navigation.
// A new page is a file with its component and an entry here.
var routes = []*route{
	{name: "overview", group: "Feedback", workspace: true, path: "", title: "Dashboard · Feedback", nav: "Overview",
		page: func(s *Shell) app.UI { return &overviewPage{Shell: s, Workspace: s.workspace()} }},
	{name: "hygiene", group: "Feedback", workspace: true, path: "hygiene", title: "Hygiene reports · Feedback", nav: "Hygiene reports",
		page: func(s *Shell) app.UI { return &hygienePage{Shell: s, Workspace: s.workspace()} }},
	{name: "alerts", group: "Feedback", workspace: true, path: alertsPath, title: "Alerts · Feedback", nav: "Alerts",
		page: func(s *Shell) app.UI { return &alertsPage{Shell: s, Workspace: s.workspace()} }},
	{name: "alert-rules", group: "Feedback", workspace: true, path: alertRulesPath, title: "Alert rules · Feedback",
		page: func(s *Shell) app.UI { return &alertRulesPage{Shell: s, Workspace: s.workspace()} }},
	{name: "alert", group: "Feedback", workspace: true, path: alertsPath, param: true, title: "Alert · Feedback",
		page: func(s *Shell) app.UI { return &alertPage{Shell: s, Workspace: s.workspace(), ID: s.param} }},
	{name: "locations", group: "Places", workspace: true, path: "locations", title: "Locations · Feedback", nav: "Locations",
		page: func(s *Shell) app.UI { return &locationsPage{Shell: s, Workspace: s.workspace()} }},
	{name: "posters", group: "Places", workspace: true, path: "posters", title: "Posters · Feedback", nav: "Posters",
		page: func(s *Shell) app.UI { return &postersPage{Shell: s, Workspace: s.workspace()} }},
	{name: "kiosks", group: "Places", workspace: true, path: "kiosks", title: "Kiosks · Feedback", nav: "Kiosks",
		page: func(s *Shell) app.UI { return &kiosksPage{Shell: s, Workspace: s.workspace()} }},
	{name: "reviews", group: "Feedback", workspace: true, path: "reviews", title: "Reviews · Feedback", nav: "Reviews",
		page: func(s *Shell) app.UI {
			return &formsPage{Shell: s, Workspace: s.workspace(), Kind: feedback.FormReview}
		}},
	{name: "surveys", group: "Feedback", workspace: true, path: "surveys", title: "Surveys · Feedback", nav: "Surveys",
		page: func(s *Shell) app.UI {
			return &formsPage{Shell: s, Workspace: s.workspace(), Kind: feedback.FormSurvey}
		}},
	{name: "survey", group: "Feedback", workspace: true, path: "survey", title: "Survey questions · Feedback",
		page: func(s *Shell) app.UI { return &surveyEditor{Shell: s, Workspace: s.workspace()} }},
	{name: "responses", group: "Feedback", workspace: true, path: "responses", title: "Responses · Feedback",
		page: func(s *Shell) app.UI { return &responsesPage{Shell: s, Workspace: s.workspace()} }},
	{name: "tokens", group: "Settings", workspace: true, path: tokensPath, title: "API tokens · Integrations · Feedback", nav: "API tokens",
		page: func(s *Shell) app.UI { return &tokensPage{Shell: s, Workspace: s.workspace()} }},
	{name: "webhooks", group: "Settings", workspace: true, path: webhooksPath, title: "Webhooks · Integrations · Feedback", nav: "Webhooks",
		page: func(s *Shell) app.UI { return &webhooksPage{Shell: s, Workspace: s.workspace()} }},
	{name: "people", group: "Settings", workspace: true, path: "people", title: "People · Feedback", nav: "People",
		page: func(s *Shell) app.UI { return &peoplePage{Shell: s, Workspace: s.workspace()} }},
	{name: "settings", group: "Settings", workspace: true, path: "settings", title: "Workspace settings · Feedback", nav: "Workspace settings",
		page: func(s *Shell) app.UI { return &settingsPage{Shell: s, Workspace: s.workspace()} }},
	{name: "audit", group: "Settings", workspace: true, path: "audit", title: "Audit log · Feedback", nav: "Audit log",
		page: func(s *Shell) app.UI { return &auditPage{Shell: s, Workspace: s.workspace()} }},
	{name: "workspaces", group: "Settings", path: "workspaces", owner: true, title: "Workspaces · Feedback", nav: "Workspaces",
		page: func(s *Shell) app.UI { return &workspacesPage{Shell: s, Owner: s.me.PlatformOwner} }},
	{name: "federations", group: "Settings", path: "federations", owner: true, title: "Identity federation · Feedback",
		nav: "Identity federation", page: func(s *Shell) app.UI { return &federationsPage{Shell: s, Owner: s.me.PlatformOwner} }},
	{name: "security", group: "Settings", path: "security", title: "Security · Feedback", nav: "Security settings",
		page: func(s *Shell) app.UI { return &securityPage{Shell: s} }},
	{name: "account", group: "Settings", path: "account", title: "Account · Feedback", nav: "Account",
		page: func(s *Shell) app.UI { return &accountPage{Shell: s} }},
}

// missingTitle is the document title of a path below a workspace or the
// settings that has no page.
const missingTitle = "Page not found · Feedback"

// Register routes the dashboard's paths to the shell, in the browser.
// One component type for all: go-app keeps it mounted, with the
// signed-in user, while the person moves between the pages.
func Register() {
	app.RouteWithRegexp(WorkspacePattern, func() app.Composer { return &Shell{} })
	app.RouteWithRegexp(SettingsPattern, func() app.Composer { return &Shell{} })
}

var (
	workspacePath = regexp.MustCompile(WorkspacePattern)
	settingsPath  = regexp.MustCompile(SettingsPattern)
)

// parsePath returns the workspace slug ("" for the settings) and the
// route of a dashboard path (nil for a place that has no page), and
// reports whether path is a dashboard path at all.
func parsePath(path string) (slug string, r *route, ok bool) {
	slug, r, _, ok = parsePathParam(path)
	return slug, r, ok
}

// parsePathParam is parsePath, with the last segment of a route that
// takes one (route.param).
func parsePathParam(path string) (slug string, r *route, param string, ok bool) {
	var rest string
	switch {
	case settingsPath.MatchString(path):
		rest = strings.TrimPrefix(strings.TrimPrefix(path, "/settings"), "/")
	case workspacePath.MatchString(path):
		slug, rest, _ = strings.Cut(strings.TrimPrefix(path, "/w/"), "/")
	default:
		return "", nil, "", false
	}
	for _, r := range routes {
		if r.workspace != (slug != "") {
			continue
		}
		if !r.param && r.path == rest {
			return slug, r, "", true
		}
		if id, found := strings.CutPrefix(rest, r.path+"/"); r.param && found && id != "" && !strings.Contains(id, "/") {
			return slug, r, id, true
		}
	}
	return slug, nil, "", true
}

// overviewPath returns the overview path of the workspace slug.
func overviewPath(slug string) string { return "/w/" + slug + "/" }
