//go:build !(js && wasm)

package browser

import (
	"context"
	"errors"

	"github.com/feedbackhq/feedback/app/offline"
)

var errNoBrowser = errors.New("browser: not running in a browser")

// OpenStore returns an offline.Memory and an error: outside a browser
// nothing persists.
func OpenStore(ctx context.Context) (offline.Store, error) { return offline.NewMemory(), errNoBrowser }

// Triggers returns a channel that never fires and is closed when ctx
// ends: outside a browser there are no events.
func Triggers(ctx context.Context) <-chan struct{} {
	ch := make(chan struct{})
	context.AfterFunc(ctx, func() { close(ch) })
	return ch
}

// Online reports true: outside a browser there is no offline signal.
func Online() bool { return true }

// PersistStorage does nothing outside a browser.
func PersistStorage() {}

// WakeLock does nothing outside a browser.
func WakeLock(ctx context.Context) (release func()) { return func() {} }
