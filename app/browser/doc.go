// Package browser binds the offline queue to the browser through
// syscall/js: an IndexedDB store (with localStorage and memory fallbacks,
// see [OpenStore]), a [Fetch] sender on window.fetch, the online and
// visibility [Triggers], persistent storage and the screen wake lock.
//
// The real code builds only for GOOS=js GOARCH=wasm; elsewhere stubs keep
// the names compiling, so that components importing this package can be
// rendered on the server and tested natively. The package never imports
// net/http, which would add 5 MB to the WebAssembly binary.
//
// The calls that wait for the browser (the store's methods, Fetch.Send)
// block their goroutine on a channel until a JavaScript callback answers.
// Never call them inside a js.FuncOf callback, such as a go-app event
// handler's synchronous part: the callback would wait for an answer that
// can only arrive after it returns. Call them from a goroutine (ctx.Async).
package browser

import "time"

// DefaultTimeout is how long a [Fetch] waits for an answer unless its
// Timeout says otherwise.
const DefaultTimeout = 15 * time.Second

// Fetch is an offline.Sender using window.fetch: same-origin credentials
// (the session cookie), no redirects (a redirected POST counts as a network
// error rather than a delivery), no cache, and an abort after Timeout. A
// rejected fetch is a network error; Response.Reset is read from the
// Retry-After and X-RateLimit-Reset headers (offline.ResetAt). The zero
// value is ready to use.
type Fetch struct {
	// Timeout bounds the whole request, answer body included; zero means
	// DefaultTimeout.
	Timeout time.Duration
}
