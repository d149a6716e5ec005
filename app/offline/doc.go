// Package offline is the app's outbox: submissions wait in a [Store] until
// the service has them, so a visitor's phone or a kiosk can go offline, be
// reloaded or lose its connection in the middle of a request without losing
// anything.
//
// The rules:
//   - The submission's id is made when the form is rendered, so double taps,
//     resubmits and resends after a lost response all carry one id and the
//     service stores the submission once.
//   - [Queue.Add] writes the item to the store before any network attempt.
//   - A flush sends the items oldest first: a visitor's one at a time to its
//     URL, a kiosk's in batches of up to [feedback.MaxSyncBatch] to
//     /kiosk/sync.
//   - 2xx and a 409 idempotency conflict remove an item; 429 waits until the
//     rate limit resets; 408, 5xx and network errors keep it and back off
//     exponentially with full jitter, capped at [BackoffCap]; any other 4xx
//     moves it to the dead-letter list with its status and problem detail.
//     Nothing is discarded silently.
//   - [Queue.Run] flushes at start, on every trigger (the browser's online
//     and visibilitychange events, and each Add) and on its own timer, since
//     a server outage is not an offline event.
//
// The package is pure Go: it compiles for every platform, and its tests run
// natively and under GOOS=js GOARCH=wasm. Package app/browser supplies the
// IndexedDB and localStorage stores, the fetch sender and the triggers.
package offline
