package dashboard

import (
	"context"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"github.com/feedbackhq/feedback/shared/client"
	"github.com/feedbackhq/feedback/shared/feedback"
)

// peoplePage is a workspace's members at /w/{slug}/people: each with
// their role, the ways to change a role or remove a member (after a
// confirmation), and invitation links. Only a platform owner may manage
// members (the API refuses anybody else); others are told so. Shell is
// the frame it is shown in, told when the session turns out to be gone.
type peoplePage struct {
	app.Compo
	requests
	Shell     *Shell
	Workspace *feedback.Membership

	api     *client.Client
	members []feedback.Member
	loaded  bool // members holds an answer
	loading bool
	denied  bool   // the user may not manage members
	notice  string // what the last action did, announced
	problem string // why the last read failed

	inviteRole string           // the role of the next invitation
	inviting   bool             // an invitation is being made
	invite     *feedback.Invite // the invitation made last, with its link
	inviteMsg  string           // why the invitation failed
	copied     string           // whether the link was copied

	asking  string // the user id of the member whose change is asked
	change  string // the asked change: a role, or "" to remove them
	working bool   // the change is under way
}

// OnMount reads the members, when the user may manage them.
func (p *peoplePage) OnMount(ctx app.Context) {
	p.mount(ctx)
	p.inviteRole = feedback.RoleViewer
	if !app.IsClient || p.Workspace == nil {
		return
	}
	if !isOwner(p.Workspace) {
		p.denied = true
		return
	}
	p.api = workspaceAPI(p.Workspace)
	p.load()
}

// OnDismount cancels the page's requests.
func (p *peoplePage) OnDismount() { p.dismount() }

// load reads the members; the list on screen stays until the answer
// replaces it.
func (p *peoplePage) load() {
	if p.loading {
		return
	}
	p.loading = true
	p.async(func(c context.Context) func(app.Context) {
		page, err := p.api.Members(c)
		return func(ctx app.Context) {
			p.loading = false
			if p.failed(explain(err), "The members could not be loaded: ") {
				return
			}
			p.members, p.loaded, p.problem = page.Data, true, ""
		}
	})
}

// failed handles a request's error, saying what failed with what, and
// reports whether there was one.
func (p *peoplePage) failed(err error, what string) bool {
	switch {
	case err == nil:
		return false
	case p.Shell.gone(err):
	case hasStatus(err, 403):
		p.denied = true
	default:
		p.problem = what + err.Error()
	}
	return true
}

// createInvite makes an invitation link with the chosen role.
func (p *peoplePage) createInvite(ctx app.Context) {
	if p.inviting {
		return
	}
	p.inviting, p.inviteMsg, p.invite, p.copied, p.notice = true, "", nil, "", ""
	role := p.inviteRole
	p.async(func(c context.Context) func(app.Context) {
		inv, err := p.api.CreateInvite(c, role)
		return func(ctx app.Context) {
			p.inviting = false
			if p.Shell.refused(explain(err), "The invitation was not created: ", func(msg string) {
				p.inviteMsg = msg
				focusLater(ctx, "invite-problem")
			}) {
				return
			}
			p.invite = inv
			focusLater(ctx, "invite-link")
		}
	})
}

// copyLink puts the invitation link on the clipboard.
func (p *peoplePage) copyLink(ctx app.Context) {
	el := app.Window().GetElementByID("invite-link")
	if !el.Truthy() || p.invite == nil {
		return
	}
	el.Call("select")
	ok := app.Window().Get("document").Call("execCommand", "copy").Bool()
	if cb := app.Window().Get("navigator").Get("clipboard"); cb.Truthy() {
		cb.Call("writeText", p.invite.URL)
		ok = true
	}
	p.copied = "Copy it by hand: the browser did not let the page copy it."
	if ok {
		p.copied = "The link is copied."
	}
}

// ask asks to confirm a change of member m: the role, or "" to remove.
func (p *peoplePage) ask(ctx app.Context, m feedback.Member, role string) {
	p.asking, p.change, p.notice = m.UserID, role, ""
	focusLater(ctx, "confirm-member")
}

// apply makes the confirmed change of member m.
func (p *peoplePage) apply(ctx app.Context, m feedback.Member) {
	if p.working {
		return
	}
	p.working = true
	role := p.change
	p.async(func(c context.Context) func(app.Context) {
		var err error
		if role == "" {
			err = p.api.RemoveMember(c, m.UserID)
		} else {
			err = p.api.SetMemberRole(c, m.UserID, role)
		}
		err = explain(err)
		return func(ctx app.Context) {
			p.working, p.asking = false, ""
			switch {
			case p.Shell.gone(err):
				return
			case err != nil && role == "":
				p.notice = "The member was not removed: " + err.Error()
			case err != nil:
				p.notice = "The role was not changed: " + err.Error()
			case role == "":
				p.notice = "Removed " + m.Email + " from the workspace."
			default:
				p.notice = m.Email + " is now " + aRole(role) + "."
			}
			focusLater(ctx, statusID)
			p.load()
		}
	})
}

// roleName is a role for people, with its article.
func aRole(role string) string {
	switch role {
	case feedback.RoleAdmin:
		return "an admin"
	case feedback.RoleViewer:
		return "a viewer"
	case feedback.RoleOwner:
		return "a platform owner"
	}
	return role
}

// otherRole is the role a member's role button gives.
func otherRole(role string) string {
	if role == feedback.RoleAdmin {
		return feedback.RoleViewer
	}
	return feedback.RoleAdmin
}
