// Package browser binds the offline queue to the browser through
// syscall/js: an IndexedDB store (with localStorage and memory fallbacks,
// see [OpenStore]), the online and visibility [Triggers], persistent
// storage and the screen wake lock. The queue sends through shared/client's
// fetch transport (offline.Over(client.Fetch{})).
//
// The real code builds only for GOOS=js GOARCH=wasm; elsewhere stubs keep
// the names compiling, so that components importing this package can be
// rendered on the server and tested natively. The package never imports
// net/http, which would add 5 MB to the WebAssembly binary.
//
// The calls that wait for the browser (the store's methods) block their
// goroutine on a channel until a JavaScript callback answers.
// Never call them inside a js.FuncOf callback, such as a go-app event
// handler's synchronous part: the callback would wait for an answer that
// can only arrive after it returns. Call them from a goroutine (ctx.Async).
package browser
