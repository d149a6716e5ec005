package dashboard

import (
	"context"
	"strconv"
	"strings"
	"time"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"github.com/feedbackhq/feedback/shared/client"
	"github.com/feedbackhq/feedback/shared/feedback"
)

// auditPage is the installation's audit log at /w/{slug}/audit: its
// security events, newest first, a page at a time, optionally only those
// of some days. Only a platform owner may read it (the API refuses
// anybody else); others are told so.
type auditPage struct {
	app.Compo
	requests
	Shell     *Shell
	Workspace *feedback.Membership

	api     *client.Client
	entries []feedback.AuditEntry
	meta    feedback.Meta
	emails  map[string]string // the members' emails by user id, to name targets
	loaded  bool
	loading bool
	denied  bool
	problem string

	from, to string // the days of the filter, YYYY-MM-DD, "" for none
	perPage  int
	page     int
}

// perPageChoices are the page sizes the page offers.
var perPageChoices = []int{10, 25, 50, 100, 200}

// OnMount reads the first page, when the user may read the log.
func (p *auditPage) OnMount(ctx app.Context) {
	p.mount(ctx)
	p.perPage, p.page = feedback.DefaultPerPage, 1
	if !app.IsClient || p.Workspace == nil {
		return
	}
	if !isOwner(p.Workspace) {
		p.denied = true
		return
	}
	p.api = workspaceAPI(p.Workspace)
	p.load()
	p.async(func(c context.Context) func(app.Context) {
		page, err := p.api.Members(c)
		return func(ctx app.Context) {
			if err != nil {
				return // the targets are then named by their ids
			}
			if p.emails == nil {
				p.emails = map[string]string{}
			}
			for _, m := range page.Data {
				p.emails[m.UserID] = m.Email
			}
		}
	})
}

// OnDismount cancels the page's requests.
func (p *auditPage) OnDismount() { p.dismount() }

// load reads the page p.page with the filters.
func (p *auditPage) load() {
	if p.loading {
		return
	}
	params := feedback.ListParams{Page: p.page, PerPage: p.perPage}
	params.From, params.To = dayRange(p.from, p.to)
	p.loading = true
	p.async(func(c context.Context) func(app.Context) {
		page, err := p.api.AuditLog(c, params)
		err = explain(err)
		return func(ctx app.Context) {
			p.loading = false
			switch {
			case p.Shell.gone(err):
			case hasStatus(err, 403):
				p.denied = true
			case err != nil:
				p.problem = "The audit log could not be loaded: " + err.Error()
				focusLater(ctx, "audit-problem")
			default:
				p.entries, p.meta, p.loaded, p.problem = page.Data, page.Meta, true, ""
				p.learnNames(page.Data)
			}
		}
	})
}

// learnNames remembers the email of each user who acted in entries,
// to name the users the entries concern, former members included.
func (p *auditPage) learnNames(entries []feedback.AuditEntry) {
	if p.emails == nil {
		p.emails = map[string]string{}
	}
	for _, e := range entries {
		if e.ActorID != nil && strings.Contains(e.Actor, "@") {
			if _, ok := p.emails[*e.ActorID]; !ok {
				p.emails[*e.ActorID] = e.Actor
			}
		}
	}
}

// goTo shows page n.
func (p *auditPage) goTo(ctx app.Context, n int) {
	p.page = n
	p.load()
	focusLater(ctx, "audit-title")
}

// auditAction tells what an entry's action did, in words.
func (p *auditPage) auditAction(e feedback.AuditEntry) string {
	d := e.Details
	target := p.targetName(e.Target)
	switch e.Action {
	case feedback.AuditSignIn:
		return "Signed in"
	case feedback.AuditSignOut:
		return "Signed out"
	case feedback.AuditSessionRevoked:
		return "Revoked a session"
	case feedback.AuditRefreshReused:
		return "A used sign-in token was presented again: the session was ended"
	case feedback.AuditTokenCreated:
		return "Created the API token " + strconv.Quote(d["name"])
	case feedback.AuditTokenRevoked:
		return "Revoked an API token"
	case feedback.AuditMemberInvited:
		return "Made an invitation link for " + aRole(d["role"])
	case feedback.AuditMemberJoined:
		return "Joined the workspace as " + aRole(d["role"])
	case feedback.AuditMemberRole:
		return "Made " + target + " " + aRole(d["role"])
	case feedback.AuditMemberRemoved:
		return "Removed " + target + " from the workspace"
	case feedback.AuditWebhookCreated:
		return "Added a webhook to " + d["url"]
	case feedback.AuditWebhookDeleted:
		return "Deleted a webhook"
	case feedback.AuditWorkspaceCreated:
		return "Created the workspace " + strconv.Quote(d["name"])
	case feedback.AuditFederationAdded:
		return "Added the identity federation " + strconv.Quote(d["name"])
	case feedback.AuditFederationRemoved:
		return "Removed an identity federation"
	}
	return e.Action
}

// targetName names the target of an entry (kind:id) for people: a
// member by their email when they are one.
func (p *auditPage) targetName(target string) string {
	kind, id, _ := strings.Cut(target, ":")
	switch kind {
	case "user":
		if email, ok := p.emails[id]; ok {
			return email
		}
		return "a user"
	case "session":
		return "a session"
	case "token":
		return "an API token"
	case "invite":
		return "an invitation"
	case "webhook":
		return "a webhook"
	}
	return target
}

// inWords is a duration for people, rounded: "3 minutes", "2 days".
func inWords(d time.Duration) string {
	if d < 0 {
		d = -d
	}
	switch {
	case d < time.Minute:
		return "less than a minute"
	case d < time.Hour:
		return plural(int(d/time.Minute), "minute", "minutes")
	case d < 48*time.Hour:
		return plural(int(d/time.Hour), "hour", "hours")
	}
	return plural(int((d+12*time.Hour)/(24*time.Hour)), "day", "days")
}

// agoText is when t was, for people: its date and how long ago.
func agoText(t time.Time) string {
	d := time.Since(t)
	if d < time.Minute {
		return dateOf(t) + " (just now)"
	}
	return dateOf(t) + " (" + inWords(d) + " ago)"
}
