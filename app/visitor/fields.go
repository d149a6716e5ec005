package visitor

import (
	"regexp"
	"strconv"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"github.com/feedbackhq/feedback/shared/feedback"
	"github.com/feedbackhq/feedback/shared/i18n"
)

// ratings are the values of a rating scale.
var ratings = []int{1, 2, 3, 4, 5}

func (p *Page) hygieneFields(heading string) app.UI {
	return app.Div().Body(
		p.scale(heading, "faces", func(n int) []app.UI {
			return []app.UI{face(n), app.Span().Text(p.t("rating_" + strconv.Itoa(n)))}
		}),
		app.FieldSet().Body(
			app.Legend().Text(p.t("tags_legend")),
			app.Range(feedback.HygieneTags).Slice(func(i int) app.UI {
				tag := feedback.HygieneTags[i]
				return p.checkbox("tag-"+tag, feedback.FieldTags, tag, p.t("tag_"+tag), has(p.Values.Tags, tag),
					func(on bool) { p.Values.Tags = toggle(p.Values.Tags, tag, on) })
			}),
		),
		p.textarea(feedback.FieldComment, p.t("comment"), feedback.MaxHygieneComment, p.Values.Comment, false,
			func(s string) { p.Values.Comment = s }),
	)
}

func (p *Page) reviewFields() app.UI {
	return app.Div().Body(
		p.scale(p.t("review_rating"), "stars", func(n int) []app.UI {
			// The number is what the eye reads; "4 stars" is the name.
			return []app.UI{star(), app.Span().Aria("hidden", "true").Text(n), app.Span().Class("sr-only").Text(p.starsLabel(n))}
		}),
		p.textarea(feedback.FieldComment, p.t("comment"), feedback.MaxReviewComment, p.Values.Comment, false,
			func(s string) { p.Values.Comment = s }),
		app.P().Body(
			app.Label().For(feedback.FieldContactEmail).Text(p.t("contact_email")),
			withValue(app.Input().Type("email").ID(feedback.FieldContactEmail).Name(feedback.FieldContactEmail).
				Attr("autocomplete", "email").MaxLength(feedback.MaxEmail).
				OnInput(func(ctx app.Context, e app.Event) { p.Values.Email = ctx.JSSrc().Get("value").String() }),
				attrSafe(p.Values.Email)),
		),
		p.checkbox(feedback.FieldContactConsent, feedback.FieldContactConsent, "yes", p.t("contact_consent"), p.Values.Consent,
			func(on bool) { p.Values.Consent = on }),
	)
}

// starsLabel names rating n of a review: "1 star", "4 stars".
func (p *Page) starsLabel(n int) string {
	if n == 1 {
		return p.t("stars_1")
	}
	return i18n.Tf(p.Lang, "stars_n", n)
}

// scale renders the five large radio buttons of a required rating, each
// labelled with what label returns for its value.
func (p *Page) scale(legend, class string, label func(n int) []app.UI) app.UI {
	return app.FieldSet().Body(
		app.Legend().Body(app.Text(legend+" "), app.Span().Class("hint").Text("("+p.t("required")+")")),
		app.Div().Class("scale "+class).Body(
			app.Range(ratings).Slice(func(i int) app.UI {
				n := ratings[i]
				v := strconv.Itoa(n)
				return p.radio(feedback.FieldRating+"-"+v, feedback.FieldRating, v, true, p.Values.Rating == n,
					func() { p.Values.Rating = n }, label(n)...)
			}),
		),
	)
}

// radio is one choice of a group: the input, then its label, which CSS
// turns into a large button. Only a required group's inputs are
// required: a browser refuses to submit a form with a required group
// left empty.
func (p *Page) radio(id, name, value string, required, checked bool, set func(), label ...app.UI) app.UI {
	in := app.Input().Type("radio").ID(id).Name(name).Value(value).
		OnChange(func(ctx app.Context, e app.Event) { p.touched = true; set() })
	// Boolean attributes only when true: go-app writes required="false"
	// and checked="false", which HTML reads as true.
	if required {
		in = in.Required(true)
	}
	if checked && !p.touched {
		in = in.Checked(true)
	}
	return app.Div().Class("choice").Body(in, app.Label().For(id).Body(label...))
}

func (p *Page) checkbox(id, name, value, label string, checked bool, set func(bool)) app.UI {
	in := app.Input().Type("checkbox").ID(id).Name(name).Value(value).
		OnChange(func(ctx app.Context, e app.Event) { p.touched = true; set(ctx.JSSrc().Get("checked").Bool()) })
	if checked && !p.touched {
		in = in.Checked(true)
	}
	return app.Div().Class("check").Body(in, app.Label().For(id).Text(label))
}

func (p *Page) textarea(name, label string, max int, value string, required bool, set func(string)) app.UI {
	id := "field-" + name
	// The text goes in a child text node, which go-app escapes: Textarea's
	// Text method would write it into a value attribute, which textareas
	// ignore and which go-app does not escape (GOAPP.md).
	ta := app.Textarea().ID(id).Name(name).Rows(3).MaxLength(max).Body(app.Text(value)).
		OnInput(func(ctx app.Context, e app.Event) { set(ctx.JSSrc().Get("value").String()) })
	if required {
		ta = ta.Required(true)
	}
	return app.P().Body(app.Label().For(id).Text(label), ta)
}

// attrSafe returns s when it can be written into an attribute of the
// prerendered HTML, and "" otherwise. go-app quotes attribute values
// with strconv.Quote instead of escaping them (GOAPP.md), so text a
// visitor typed may be written there only when it holds nothing an HTML
// parser would end the attribute on.
func attrSafe(s string) string {
	if attrPattern.MatchString(s) {
		return s
	}
	return ""
}

var attrPattern = regexp.MustCompile(`^[A-Za-z0-9.@+_%-]{0,254}$`)

// withValue sets an input's value only when there is one: go-app drops
// empty attribute values anyway, and an absent value reads as empty.
func withValue(in app.HTMLInput, v string) app.HTMLInput {
	if v != "" {
		return in.Value(v)
	}
	return in
}
