package visitor

import (
	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"github.com/feedbackhq/feedback/shared/i18n"
)

// Thanks is the page a form post without JavaScript is redirected to.
type Thanks struct {
	app.Compo
	Code string
	Lang string
}

// OnInit reads the code and language from the URL in the browser.
func (t *Thanks) OnInit() {
	if !app.IsClient || t.Code != "" {
		return
	}
	u := app.Window().URL()
	t.Code = codeOf(u.Path)
	t.Lang, _ = i18n.Normalize(u.Query().Get("lang"))
	if t.Lang == "" {
		t.Lang = i18n.Default
	}
}

// Render renders the page.
func (t *Thanks) Render() app.UI {
	back := "/q/" + t.Code + "?lang=" + t.Lang
	return app.Main().ID("main").Class("visitor").Body(
		app.Section().Class("message").Body(
			app.H1().Text(i18n.T(t.Lang, "thanks_title")),
			app.P().Role("status").Text(i18n.T(t.Lang, "thanks_body")),
			app.P().Body(app.A().Class("button primary").Href(back).Text(i18n.T(t.Lang, "again"))),
		),
	)
}
