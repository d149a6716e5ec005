package visitor

import (
	"context"
	"strconv"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"github.com/feedbackhq/feedback/shared/i18n"
)

// renderRefused lists what the service refused from this device, with
// the reason, and lets the visitor remove each entry: nothing is dropped
// without the visitor seeing it.
func (p *Page) renderRefused() app.UI {
	return app.Details().Class("refused").Body(
		app.Summary().Text(i18n.Tf(p.Lang, "refused_count", len(p.refused))),
		app.Ul().Body(app.Range(p.refused).Slice(func(i int) app.UI {
			r := p.refused[i]
			return app.Li().Body(
				app.Span().Text(r.Added.Local().Format("2006-01-02 15:04")+" · "+strconv.Itoa(r.Status)+" · "+r.Reason+" "),
				app.Button().Type("button").Class("quiet").Text(p.t("discard")).
					OnClick(func(ctx app.Context, e app.Event) { p.discard(ctx, r.ID) }),
			)
		})),
	)
}

func (p *Page) discard(ctx app.Context, id string) {
	ctx.Async(func() {
		_ = outbox.Discard(context.Background(), id)
		ctx.Dispatch(func(app.Context) { p.refresh() })
	})
}
