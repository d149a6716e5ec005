package dashboard

import (
	"context"
	"time"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"github.com/feedbackhq/feedback/shared/client"
)

// fileLink is a link to a file the API makes (a poster's PDF, its QR
// code). A plain navigation cannot send the Feedback-Workspace header
// that a member of several workspaces needs, so a click fetches the file
// with it and opens it, or saves it as name when download is set. The
// href stays the file's API path, for what the browser does itself
// (copy the link, and so on).
func fileLink(r *requests, a *client.Client, id, path, name, text string, download bool, fail func(error)) app.HTMLA {
	link := app.A().ID(id).Href(path).Text(text).OnClick(func(ctx app.Context, e app.Event) {
		e.PreventDefault()
		getFile(r, a, path, name, download, fail)
	})
	if download {
		link = link.Attr("download", name)
	} else {
		link = link.Target("_blank").Rel("noopener")
	}
	return link
}

// getFile fetches the file at path and opens or saves it. The window a
// file opens in is opened at once, while the click still allows it.
func getFile(r *requests, a *client.Client, path, name string, download bool, fail func(error)) {
	var win app.Value
	if !download {
		win = app.Window().Call("open", "", "_blank")
	}
	r.async(func(c context.Context) func(app.Context) {
		data, typ, err := a.File(c, path)
		return func(ctx app.Context) {
			if err != nil {
				if win != nil && win.Truthy() {
					win.Call("close")
				}
				fail(explain(err))
				return
			}
			u := blobURL(data, typ)
			if download || win == nil || !win.Truthy() {
				save(u, name)
			} else {
				win.Get("location").Set("href", u)
			}
			ctx.After(time.Minute, func(app.Context) { app.Window().Get("URL").Call("revokeObjectURL", u) })
		}
	})
}

// blobURL returns an object URL of data, of content type typ.
func blobURL(data []byte, typ string) string {
	w := app.Window()
	u8 := w.Get("Uint8Array").New(len(data))
	app.CopyBytesToJS(u8, data)
	blob := w.Get("Blob").New([]any{u8}, map[string]any{"type": typ})
	return w.Get("URL").Call("createObjectURL", blob).String()
}

// save has the browser save the object URL u as name.
func save(u, name string) {
	doc := app.Window().Get("document")
	a := doc.Call("createElement", "a")
	a.Set("href", u)
	a.Set("download", name)
	doc.Get("body").Call("append", a)
	a.Call("click")
	a.Call("remove")
}
