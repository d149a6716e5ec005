//go:build !(js && wasm)

package dashboard

import (
	"context"
	"errors"
)

// send fails outside a browser: the server prerenders the dashboard's
// loading shell, which asks nothing.
func send(context.Context, string, string) (int, []byte, error) {
	return 0, nil, errors.New("dashboard: not running in a browser")
}
