package visitor

import (
	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"github.com/feedbackhq/feedback/shared/i18n"
)

// renderOutcome thanks the visitor and says, in a live region, whether the
// submission reached the server or waits on the device.
func (p *Page) renderOutcome() app.UI {
	return app.Section().Class("message").Body(
		app.H1().Text(p.t("thanks_title")),
		app.P().Role("status").Aria("live", "polite").Text(p.outcomeText()),
		app.If(p.queued > 0, func() app.UI {
			return app.P().Class("hint").Text(i18n.Tf(p.Lang, "waiting", p.queued))
		}),
		app.P().Body(app.Button().Type("button").Class("primary").Text(p.t("again")).OnClick(p.again)),
	)
}

func (p *Page) outcomeText() string {
	switch p.state {
	case Sent:
		return p.t("sent")
	case Failed:
		return p.t("failed_one")
	}
	return p.t("saved")
}
