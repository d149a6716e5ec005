package dashboard

import (
	"context"

	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// requests ties a component's API calls to its life: each answer is
// dispatched to the mounted component itself, not to the element whose
// event started the call, which may be gone by then (a revoked session's
// row, the sign-out form); and the calls end when it is dismounted.
// Components embed it and call mount and dismount.
type requests struct {
	ui     app.Context
	c      context.Context
	cancel context.CancelFunc
}

func (r *requests) mount(ctx app.Context) {
	r.ui = ctx
	r.context()
}

func (r *requests) dismount() {
	if r.cancel != nil {
		r.cancel()
		r.c, r.cancel = nil, nil
	}
}

func (r *requests) context() context.Context {
	if r.c == nil {
		r.c, r.cancel = context.WithCancel(context.Background())
	}
	return r.c
}

// async runs call in a goroutine, then its answer on the UI goroutine.
func (r *requests) async(call func(c context.Context) (answer func(app.Context))) {
	c, ui := r.context(), r.ui
	ui.Async(func() {
		answer := call(c)
		ui.Dispatch(answer)
	})
}

// IDs of the elements that the focus moves to and that tests look for.
const (
	titleID  = "page-title"
	statusID = "sessions-status"
)

// title is a page's heading, which the focus moves to after an in-app
// navigation.
func title(text string) app.UI {
	return app.H1().ID(titleID).TabIndex(-1).Text(text)
}

// focusLater focuses the element id after the next render.
func focusLater(ctx app.Context, id string) {
	ctx.Defer(func(app.Context) {
		if el := app.Window().GetElementByID(id); el.Truthy() {
			el.Call("focus")
		}
	})
}
