//go:build !(js && wasm)

package pwa

import (
	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"github.com/feedbackhq/feedback/app/dashboard"
	"github.com/feedbackhq/feedback/app/visitor"
	"github.com/feedbackhq/feedback/shared/feedback"
)

// The server's door to the pages it prerenders itself, around its own
// document (go-app's handler serves only the pages registered in
// routes_server.go). Each function returns the body of a page; the wasm
// mounts the same components, which adopt what the body holds.

// Form is what the server knows when it renders a visitor form.
type Form struct {
	Code   string             // the poster code of the URL
	Lang   string             // the page language
	ID     string             // the submission id, checked by the caller
	View   *feedback.FormView // what the form asks
	Errors error              // a refusal to list above the form, or nil
	// Posted is the submission the form is rendered again for, whose
	// values are kept; nil for a new form.
	Posted *feedback.Submission
}

// VisitorForm returns the visitor form of a poster.
func VisitorForm(f Form) app.UI {
	p := &visitor.Page{Code: f.Code, Lang: f.Lang, ID: f.ID, View: f.View, Errors: feedback.ErrorParams(f.Errors)}
	if f.Posted != nil {
		p.Values = visitor.ValuesOf(f.Posted)
	}
	return p
}

// VisitorThanks returns the page a form post without JavaScript is
// redirected to.
func VisitorThanks(code, lang string) app.UI {
	return &visitor.Thanks{Code: code, Lang: lang}
}

// VisitorProblem returns the page that explains the error code to a
// visitor, in lang.
func VisitorProblem(lang, code string) app.UI {
	return &visitor.Page{Lang: lang, Problem: code}
}

// Shell is a dashboard page as the server prerenders it: its loading
// state, the same for every user.
type Shell struct {
	Body  app.UI
	Title string // the document title
	// Found reports whether the path names a page, rather than a place
	// below a workspace or the settings that has none (a 404).
	Found bool
}

// Dashboard returns the dashboard page of path, and reports whether path
// is a dashboard path at all.
func Dashboard(path string) (Shell, bool) {
	p, ok := dashboard.New(path)
	if !ok {
		return Shell{}, false
	}
	return Shell{Body: p, Title: p.Title(), Found: p.Found()}, true
}
