package dashboard

import (
	"context"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"github.com/feedbackhq/feedback/shared/feedback"
)

// status is what the page knows about the user.
type status int

const (
	loading   status = iota // before GET /me answers, and in the prerendered page
	signedOut               // no session: the signed-out view
	failed                  // GET /me failed: problem says why
	ready                   // signed in: me is set
)

// Page is the dashboard: one component for every dashboard route, so
// that it stays mounted, with the signed-in user, while the person
// moves between its pages. Everything it shows comes from the path and,
// in the browser, from the API; it has no inputs.
type Page struct {
	app.Compo

	slug     string  // the workspace of the path; "" on the settings
	section  section // the page of the path
	lastSlug string  // the workspace opened last, for the links of the settings

	status  status
	me      *feedback.Me
	asking  bool   // GET /me is under way
	problem string // why GET /me failed
	reason  string // why the user is signed out, after they acted
	leaving bool   // a sign-out is under way

	sessions  sessionList
	navigated bool        // the first navigation happened: move the focus on the next ones
	ui        app.Context // the mounted component's context, for the answers to requests
	c         context.Context
	cancel    context.CancelFunc
}

// New returns the page of a dashboard path as the server prerenders it,
// and reports whether path is a dashboard path at all.
func New(path string) (*Page, bool) {
	slug, s, ok := parsePath(path)
	if !ok {
		return nil, false
	}
	return &Page{slug: slug, section: s}, true
}

// Found reports whether the path names a page of the dashboard, rather
// than a place below a workspace or the settings that has none: the
// server answers those with 404.
func (p *Page) Found() bool { return p.section != missing }

// Title is the document title of the page.
func (p *Page) Title() string {
	switch p.section {
	case security:
		return "Security · Feedback"
	case missing:
		return "Page not found · Feedback"
	}
	return "Dashboard · Feedback"
}

// OnMount keeps the component's context: answers to requests are
// dispatched to the component itself, not to the element whose event
// started them, which may be gone by then (a revoked session's row, the
// sign-out form). It also starts the context that ends the page's
// requests when it goes.
func (p *Page) OnMount(ctx app.Context) {
	p.ui = ctx
	p.context()
}

// OnDismount cancels the page's requests.
func (p *Page) OnDismount() {
	if p.cancel != nil {
		p.cancel()
		p.c, p.cancel = nil, nil
	}
}

func (p *Page) context() context.Context {
	if p.c == nil {
		p.c, p.cancel = context.WithCancel(context.Background())
	}
	return p.c
}

// OnNav follows the path: go-app keeps this component between the
// dashboard's routes, so the user is asked for once per page load.
func (p *Page) OnNav(ctx app.Context) {
	slug, s, _ := parsePath(ctx.Page().URL().Path)
	first := !p.navigated
	p.slug, p.section = slug, s
	if slug != "" {
		p.lastSlug = slug
	}
	ctx.Page().SetTitle("%s", p.Title())
	switch {
	case p.status == loading && !p.asking:
		p.loadMe()
	case p.status == ready && s == security:
		p.loadSessions()
	}
	if !first {
		p.focusTitle(ctx) // an in-app navigation: tell screen readers where they are
	}
	p.navigated = true
}

// loadMe asks the API who is signed in.
func (p *Page) loadMe() {
	p.status, p.problem, p.asking = loading, "", true
	c, ui := p.context(), p.ui
	ui.Async(func() {
		me, err := getMe(c)
		ui.Dispatch(func(ctx app.Context) { p.gotMe(ctx, me, err) })
	})
}

func (p *Page) gotMe(ctx app.Context, me *feedback.Me, err error) {
	p.asking = false
	switch {
	case isSignedOut(err):
		p.toSignedOut(ctx, "")
	case err != nil:
		p.status, p.problem = failed, err.Error()
	default:
		p.status, p.me = ready, me
		if p.section == security {
			p.loadSessions()
		}
	}
}

// toSignedOut shows the signed-out view, saying why when the user's own
// action signed them out.
func (p *Page) toSignedOut(ctx app.Context, reason string) {
	p.status, p.me, p.reason, p.sessions = signedOut, nil, reason, sessionList{}
	if reason != "" {
		p.focusTitle(ctx)
	}
}

// focusTitle moves the keyboard focus to the page's heading once it is
// rendered.
func (p *Page) focusTitle(ctx app.Context) { focusLater(ctx, titleID) }

// focusLater focuses the element id after the next render.
func focusLater(ctx app.Context, id string) {
	ctx.Defer(func(app.Context) {
		if el := app.Window().GetElementByID(id); el.Truthy() {
			el.Call("focus")
		}
	})
}

// workspace returns the membership the page is about: the path's
// workspace, or on the settings the one opened last, else the first.
// It is nil when the user cannot open the path's workspace.
func (p *Page) workspace() *feedback.Membership {
	if p.me == nil {
		return nil
	}
	want := p.slug
	if want == "" {
		want = p.lastSlug
	}
	for i, m := range p.me.Workspaces {
		if m.Slug == want {
			return &p.me.Workspaces[i]
		}
	}
	if p.slug == "" && len(p.me.Workspaces) > 0 {
		return &p.me.Workspaces[0]
	}
	return nil
}
