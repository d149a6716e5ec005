package dashboard

import (
	"context"
	"errors"
	"strconv"
	"strings"
	"time"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"github.com/feedbackhq/feedback/shared/client"
	"github.com/feedbackhq/feedback/shared/feedback"
)

// What the locations, posters and kiosks pages share: the API in the
// workspace, the workspace's locations and forms, the form choice, the
// messages of a refused input, and the files the service makes.

// workspaceAPI returns the REST API acting in the workspace ws.
func workspaceAPI(ws *feedback.Membership) *client.Client {
	c := *api
	c.Workspace = ws.Slug
	return &c
}

// catalog is what the workspace offers to place: its locations and the
// reviews and surveys a poster or kiosk can show.
type catalog struct {
	locs    []feedback.Location
	reviews []feedback.Review
	surveys []feedback.Survey
	loaded  bool
}

// readCatalog reads the locations, reviews and surveys (a page of each).
func readCatalog(c context.Context, a *client.Client) (catalog, error) {
	var out catalog
	locs, err := a.Locations(c, allOf)
	if err != nil {
		return out, explain(err)
	}
	reviews, err := a.Reviews(c, allOf)
	if err != nil {
		return out, explain(err)
	}
	surveys, err := a.Surveys(c, allOf)
	if err != nil {
		return out, explain(err)
	}
	return catalog{locs: locs.Data, reviews: reviews.Data, surveys: surveys.Data, loaded: true}, nil
}

// locationName returns the name of location id, for people.
func (c *catalog) locationName(id string) string {
	for _, l := range c.locs {
		if l.ID == id {
			return l.Name
		}
	}
	return "A deleted location"
}

// formValue is the value of the form choice of ref: "hygiene", or the
// kind and the id, "review:ID" or "survey:ID".
func formValue(ref feedback.FormRef) string {
	switch ref.Form {
	case feedback.FormReview:
		return "review:" + ref.ReviewID
	case feedback.FormSurvey:
		return "survey:" + ref.SurveyID
	}
	return string(ref.Form)
}

// formRef is the form a choice's value names.
func formRef(value string) feedback.FormRef {
	kind, id, _ := strings.Cut(value, ":")
	ref := feedback.FormRef{Form: feedback.FormKind(kind)}
	switch ref.Form {
	case feedback.FormReview:
		ref.ReviewID = id
	case feedback.FormSurvey:
		ref.SurveyID = id
	}
	return ref
}

// formName names the form ref shows, for people.
func (c *catalog) formName(ref feedback.FormRef) string {
	switch ref.Form {
	case feedback.FormReview:
		for _, r := range c.reviews {
			if r.ID == ref.ReviewID {
				return "Review: " + r.Title
			}
		}
		return "A deleted review"
	case feedback.FormSurvey:
		for _, s := range c.surveys {
			if s.ID == ref.SurveyID {
				return "Survey: " + s.Title
			}
		}
		return "A deleted survey"
	}
	return "Hygiene rating"
}

// formOptions are the choices of a form select: the hygiene rating, then
// each review and survey, drafts said to be drafts.
func (c *catalog) formOptions(chosenValue string) []app.UI {
	opts := []app.UI{option("hygiene", "Hygiene rating", chosenValue == "hygiene")}
	for _, r := range c.reviews {
		v := "review:" + r.ID
		opts = append(opts, option(v, "Review: "+r.Title+draftNote(r.Status), chosenValue == v))
	}
	for _, s := range c.surveys {
		v := "survey:" + s.ID
		opts = append(opts, option(v, "Survey: "+s.Title+draftNote(s.Status), chosenValue == v))
	}
	return opts
}

func draftNote(s feedback.Status) string {
	if s == feedback.StatusDraft {
		return " (draft)"
	}
	return ""
}

// fieldErrors returns the reasons the service gave for each refused
// field of a request (err is the client's error, before explain), by
// field name.
func fieldErrors(err error) map[string]string {
	var p *feedback.Problem
	if !errors.As(err, &p) || len(p.InvalidParams) == 0 {
		return nil
	}
	out := map[string]string{}
	for _, ip := range p.InvalidParams {
		out[ip.Name] = ip.Reason
	}
	return out
}

// field is a labelled text input with the service's reason when it
// refused the value (err), tied to the input for screen readers.
func field(id, label, hint, err string, max int, onInput func(string)) app.UI {
	in := app.Input().Type("text").ID(id).Name(id).MaxLength(max).
		OnInput(func(ctx app.Context, e app.Event) { onInput(ctx.JSSrc().Get("value").String()) })
	described := ""
	if hint != "" {
		described = id + "-hint"
	}
	if err != "" {
		in = in.Aria("invalid", "true")
		described = strings.TrimSpace(described + " " + id + "-error")
	}
	if described != "" {
		in = in.Aria("describedby", described)
	}
	return app.Div().Class("field").Body(
		app.Label().For(id).Text(label),
		app.If(hint != "", func() app.UI { return app.P().ID(id + "-hint").Class("hint").Text(hint) }),
		in,
		app.If(err != "", func() app.UI { return app.P().ID(id + "-error").Class("field-error").Text(label + " " + err + ".") }),
	)
}

// clearInput empties the input id (go-app cannot, GOAPP.md section 6).
func clearInput(id string) {
	if el := app.Window().GetElementByID(id); el.Truthy() {
		el.Set("value", "")
	}
}

// plural is n and the noun, in the plural unless n is 1.
func plural(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return strconv.Itoa(n) + " " + many
}

// dateOf is t's day in the browser's time zone.
func dateOf(t time.Time) string { return t.Local().Format("2 Jan 2006, 15:04") }

// disabledIf disables b when off is set (a false boolean attribute
// would read as true, GOAPP.md section 1).
func disabledIf(b app.HTMLButton, off bool) app.HTMLButton {
	if off {
		return b.Disabled(true)
	}
	return b
}

// atoi is the number s, 0 when it is none.
func atoi(s string) int {
	n, _ := strconv.Atoi(s)
	return n
}
