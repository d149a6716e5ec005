package visitor

import (
	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"github.com/feedbackhq/feedback/shared/i18n"
)

// languageLinks lets the visitor switch language. They are plain links,
// so they work before and without the wasm.
func languageLinks(current, path string) app.UI {
	return app.Nav().Class("languages").Aria("label", i18n.T(current, "language")).Body(
		app.Range(i18n.Languages).Slice(func(i int) app.UI {
			lang := i18n.Languages[i]
			a := app.A().Href(path + "?lang=" + lang).Lang(lang).Text(i18n.Name(lang))
			if lang == current {
				a = a.Aria("current", "page")
			}
			return a
		}),
	)
}
