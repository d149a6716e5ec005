package dashboard

import (
	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// leaveGuard holds a page whose changes are not saved: while armed, a
// click on a link that leaves the page (the navigation's among them) is
// stopped and handed to ask instead, and closing or reloading the tab
// makes the browser ask first (beforeunload).
//
// go-app follows a link in its own click listener on window, in the
// bubbling phase (browser.go, handleAnchorClick), so a listener on the
// document in the capture phase sees the click first and can stop it
// before go-app navigates. The workspace switcher and the browser's back
// button navigate without a click on a link: they are not held.
type leaveGuard struct {
	click  app.Func // the document's click listener, capture phase
	unload app.Func // the window's beforeunload listener
}

// arm starts holding the page; ask is called, on the UI goroutine, with
// the address of a link the person followed. It does nothing when armed.
func (g *leaveGuard) arm(ctx app.Context, ask func(ctx app.Context, href string)) {
	if !app.IsClient || g.click != nil {
		return
	}
	g.click = app.FuncOf(func(this app.Value, args []app.Value) any {
		if href, ok := leavingLink(args[0]); ok {
			args[0].Call("preventDefault")
			args[0].Call("stopPropagation")
			ctx.Dispatch(func(ctx app.Context) { ask(ctx, href) })
		}
		return nil
	})
	g.unload = app.FuncOf(func(this app.Value, args []app.Value) any {
		args[0].Call("preventDefault")
		args[0].Set("returnValue", "") // what older Chromium needs to ask
		return nil
	})
	app.Window().Get("document").Call("addEventListener", "click", g.click, true)
	app.Window().Call("addEventListener", "beforeunload", g.unload)
}

// disarm stops holding the page. It does nothing when not armed.
func (g *leaveGuard) disarm() {
	if g.click == nil {
		return
	}
	app.Window().Get("document").Call("removeEventListener", "click", g.click, true)
	app.Window().Call("removeEventListener", "beforeunload", g.unload)
	g.click.Release()
	g.unload.Release()
	g.click, g.unload = nil, nil
}

// leavingLink returns the address of the link a click event follows
// in this tab, and reports whether it leaves the page: not a click that
// opens another tab or downloads a file, nor a link to a place on the
// page itself (the skip link).
func leavingLink(e app.Value) (string, bool) {
	if e.Get("defaultPrevented").Bool() || e.Get("button").Int() != 0 ||
		e.Get("metaKey").Bool() || e.Get("ctrlKey").Bool() || e.Get("shiftKey").Bool() {
		return "", false
	}
	t := e.Get("target")
	if !t.Truthy() || t.Get("closest").Type() != app.TypeFunction {
		return "", false
	}
	a := t.Call("closest", "a[href]")
	if !a.Truthy() || a.Call("hasAttribute", "download").Bool() || a.Get("target").String() == "_blank" {
		return "", false
	}
	if href := a.Call("getAttribute", "href").String(); href == "" || href[0] == '#' {
		return "", false
	}
	return a.Get("href").String(), true
}
