package dashboard

import (
	"context"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"github.com/feedbackhq/feedback/shared/feedback"
)

// status is what the shell knows about the user.
type status int

const (
	loading   status = iota // before GET /me answers, and in the prerendered page
	signedOut               // no session: the signed-out view
	failed                  // GET /me failed: problem says why
	ready                   // signed in: me is set
)

// Shell is the dashboard's frame around its pages: the workspace, the
// navigation, the user, the way out and the live status, and the page of
// the path (see routes). One Shell serves every dashboard route, so that
// it stays mounted, with the signed-in user, while the person moves
// between the pages; each page is a component of its own, with its own
// state. Everything the shell shows comes from the path and, in the
// browser, from the API; it has no inputs.
type Shell struct {
	app.Compo
	requests

	slug     string // the workspace of the path; "" on the settings
	route    *route // the page of the path; nil when it has none
	param    string // the id in the path of a route that takes one
	lastSlug string // the workspace opened last, for the links of the settings

	status    status
	me        *feedback.Me
	asking    bool      // GET /me is under way
	problem   string    // why GET /me failed
	reason    string    // why the user is signed out, after they acted
	leaving   bool      // a sign-out is under way
	live      string    // the live status line; empty on pages without live feedback
	liveState liveState // the state the line tells
	navigated bool      // the first navigation happened: move the focus on the next ones
	menuOpen  bool      // the navigation is shown on a narrow screen
	alerts    alertWatch
}

// New returns the shell of a dashboard path as the server prerenders it,
// and reports whether path is a dashboard path at all.
func New(path string) (*Shell, bool) {
	slug, r, param, ok := parsePathParam(path)
	if !ok {
		return nil, false
	}
	return &Shell{slug: slug, route: r, param: param}, true
}

// Found reports whether the path names a page of the dashboard, rather
// than a place below a workspace or the settings that has none: the
// server answers those with 404.
func (s *Shell) Found() bool { return s.route != nil }

// Title is the document title of the page.
func (s *Shell) Title() string {
	if s.route == nil {
		return missingTitle
	}
	return s.route.title
}

// OnMount keeps the shell's context for the answers to its requests.
func (s *Shell) OnMount(ctx app.Context) { s.mount(ctx) }

// OnDismount cancels the shell's requests.
func (s *Shell) OnDismount() {
	s.alerts.stop()
	s.dismount()
}

// OnNav follows the path: go-app keeps the shell between the dashboard's
// routes, so the user is asked for once per page load.
func (s *Shell) OnNav(ctx app.Context) {
	slug, r, param, _ := parsePathParam(ctx.Page().URL().Path)
	first := !s.navigated
	s.slug, s.route, s.param, s.menuOpen = slug, r, param, false
	if slug != "" {
		s.lastSlug = slug
	}
	ctx.Page().SetTitle("%s", s.Title())
	if s.status == loading && !s.asking {
		s.loadMe()
	}
	if !first {
		focusLater(ctx, titleID) // an in-app navigation: tell screen readers where they are
	}
	s.navigated = true
	s.watchAlerts()
}

// loadMe asks the API who is signed in.
func (s *Shell) loadMe() {
	s.status, s.problem, s.asking = loading, "", true
	s.async(func(c context.Context) func(app.Context) {
		me, err := getMe(c)
		return func(ctx app.Context) { s.gotMe(ctx, me, err) }
	})
}

func (s *Shell) gotMe(ctx app.Context, me *feedback.Me, err error) {
	s.asking = false
	switch {
	case isSignedOut(err):
		s.toSignedOut(ctx, "")
	case err != nil:
		s.status, s.problem = failed, err.Error()
	default:
		s.status, s.me = ready, me
		s.watchAlerts()
	}
}

// endSession shows the signed-out view after a page learned that the
// session is gone, saying why.
func (s *Shell) endSession(reason string) {
	s.ui.Dispatch(func(ctx app.Context) { s.toSignedOut(ctx, reason) })
}

// refusedForm shows a refusal err of a form: the reasons of its fields
// in *errs, the rest in words after prefix in *msg, then moves the focus
// to focusID.
func (s *Shell) refusedForm(ctx app.Context, err error, prefix, focusID string, errs *map[string]string, msg *string) {
	*errs = fieldErrors(err)
	s.refused(explain(err), prefix, func(m string) {
		*msg = m
		focusLater(ctx, focusID)
	})
}

// refused reports whether a request failed with err. A session that has
// ended signs the user out; any other failure goes to show, after
// prefix.
func (s *Shell) refused(err error, prefix string, show func(msg string)) bool {
	switch {
	case err == nil:
		return false
	case !s.gone(err):
		show(prefix + err.Error())
	}
	return true
}

// gone reports whether err says the session has ended, and then signs
// the user out.
func (s *Shell) gone(err error) bool {
	if !isSignedOut(err) {
		return false
	}
	s.endSession("Your session has ended. Sign in again.")
	return true
}

// setLive shows the live status line of a page (text "" removes it).
func (s *Shell) setLive(state liveState, text string) {
	if s.ui.Context == nil { // not mounted
		return
	}
	s.ui.Dispatch(func(ctx app.Context) { s.live, s.liveState = text, state })
}

// reloadMe asks again who is signed in, after a page learned that the
// user's memberships changed.
func (s *Shell) reloadMe() {
	s.ui.Dispatch(func(ctx app.Context) {
		if !s.asking {
			s.loadMe()
		}
	})
}

// toSignedOut shows the signed-out view, saying why when the user's own
// action signed them out.
func (s *Shell) toSignedOut(ctx app.Context, reason string) {
	s.status, s.me, s.reason = signedOut, nil, reason
	s.alerts.stop()
	if reason != "" {
		focusLater(ctx, titleID)
	}
}

// workspace returns the membership the page is about: the path's
// workspace, or on the settings the one opened last, else the first.
// It is nil when the user cannot open the path's workspace.
func (s *Shell) workspace() *feedback.Membership {
	if s.me == nil {
		return nil
	}
	want := s.slug
	if want == "" {
		want = s.lastSlug
	}
	for i, m := range s.me.Workspaces {
		if m.Slug == want {
			return &s.me.Workspaces[i]
		}
	}
	if s.slug == "" && len(s.me.Workspaces) > 0 {
		return &s.me.Workspaces[0]
	}
	return nil
}
