package visitor

import (
	"regexp"
	"strconv"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"github.com/feedbackhq/feedback/shared/feedback"
)

// faces are the five hygiene ratings, 1 (very dirty) to 5 (very clean).
var faces = []string{"😣", "🙁", "😐", "🙂", "😄"}

func (p *Page) hygieneFields(heading string) app.UI {
	return app.Div().Body(
		p.scale(heading, feedback.FieldRating, faces, "rating_"),
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
	stars := []string{"★", "★★", "★★★", "★★★★", "★★★★★"}
	return app.Div().Body(
		p.scale(p.t("review_rating"), feedback.FieldRating, stars, ""),
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

// scale renders five (or more) large radio buttons, each with a glyph and
// a label; label keys are labelKey+n, or "n stars" when labelKey is empty.
func (p *Page) scale(legend, name string, glyphs []string, labelKey string) app.UI {
	return app.FieldSet().Body(
		app.Legend().Body(app.Text(legend+" "), app.Span().Class("hint").Text("("+p.t("required")+")")),
		app.Div().Class("scale").Body(
			app.Range(glyphs).Slice(func(i int) app.UI {
				n := i + 1
				label := strconv.Itoa(n) + " " + p.t("stars")
				if labelKey != "" {
					label = p.t(labelKey + strconv.Itoa(n))
				}
				return p.radio(name+"-"+strconv.Itoa(n), name, strconv.Itoa(n), glyphs[i], label, true, p.Values.Rating == n,
					func() { p.Values.Rating = n })
			}),
		),
	)
}

// radio is one choice of a group: the input, then its label, which CSS
// turns into a large button. Only a required group's inputs are
// required: a browser refuses to submit a form with a required group
// left empty.
func (p *Page) radio(id, name, value, glyph, label string, required, checked bool, set func()) app.UI {
	in := app.Input().Type("radio").ID(id).Name(name).Value(value).
		OnChange(func(ctx app.Context, e app.Event) { set() })
	// Boolean attributes only when true: go-app writes required="false"
	// and checked="false", which HTML reads as true.
	if required {
		in = in.Required(true)
	}
	if checked {
		in = in.Checked(true)
	}
	return app.Div().Class("choice").Body(
		in,
		app.Label().For(id).Body(
			app.If(glyph != "", func() app.UI { return app.Span().Class("face").Text(glyph) }),
			app.Span().Text(label),
		),
	)
}

func (p *Page) checkbox(id, name, value, label string, checked bool, set func(bool)) app.UI {
	in := app.Input().Type("checkbox").ID(id).Name(name).Value(value).
		OnChange(func(ctx app.Context, e app.Event) { set(ctx.JSSrc().Get("checked").Bool()) })
	if checked {
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
