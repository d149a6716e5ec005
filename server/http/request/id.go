package request

import (
	"context"
)

// contextKey is the type of the keys this package puts in a context.
type contextKey struct{ name string }

var idKey = &contextKey{"request-id"}

// WithID returns ctx carrying the request id id.
func WithID(ctx context.Context, id string) context.Context {
	return context.WithValue(ctx, idKey, id)
}

// ID returns the id of the request in ctx, "" when it has none.
func ID(ctx context.Context) string {
	id, _ := ctx.Value(idKey).(string)
	return id
}
