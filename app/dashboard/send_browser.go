//go:build js && wasm

package dashboard

import (
	"context"

	"github.com/feedbackhq/feedback/app/browser"
)

// send is window.fetch with the session cookies (same origin). Call it
// from a goroutine (ctx.Async), never inside an event handler's
// synchronous part (see app/browser).
func send(ctx context.Context, method, url string) (status int, body []byte, err error) {
	res, err := browser.Fetch{}.Send(ctx, method, url, map[string]string{"Accept": "application/json"}, nil)
	return res.Status, res.Body, err
}
