package http

import (
	"context"
	"net/http"

	"github.com/feedbackhq/feedback/shared/feedback"
)

// The generic handlers below serve the many endpoints that only list, get
// or update a workspace's records: decode, validate, call the store,
// encode. Endpoints with more to do have handlers of their own.

type (
	listFunc[T any]       func(ctx context.Context, ws string, p feedback.ListParams) ([]T, int, error)
	subListFunc[T any]    func(ctx context.Context, ws, id string, p feedback.ListParams) ([]T, int, error)
	getFunc[T any]        func(ctx context.Context, ws, id string) (T, error)
	updateFunc[T, In any] func(ctx context.Context, ws, id string, in In) (T, error)
)

// validating is an input that checks itself; create reports whether it is
// for a new record.
type validating[In any] interface {
	*In
	Validate(create bool) error
}

// listHandler answers a page of list, filtered by the named parameters.
func listHandler[T any](list listFunc[T], filters ...string) handlerFunc {
	return func(w http.ResponseWriter, r *http.Request) error {
		p, err := listParams(r, filters...)
		if err != nil {
			return err
		}
		items, total, err := list(r.Context(), workspaceID(r.Context()), p)
		if err != nil {
			return err
		}
		return writePage(w, items, total, p)
	}
}

// subListHandler answers a page of the records under the {id} in the path.
func subListHandler[T any](list subListFunc[T], filters ...string) handlerFunc {
	return func(w http.ResponseWriter, r *http.Request) error {
		id, err := pathID(r, "id")
		if err != nil {
			return err
		}
		return listHandler(func(ctx context.Context, ws string, p feedback.ListParams) ([]T, int, error) {
			return list(ctx, ws, id, p)
		}, filters...)(w, r)
	}
}

// getHandler answers the record named by {id}.
func getHandler[T any](get getFunc[T]) handlerFunc {
	return func(w http.ResponseWriter, r *http.Request) error {
		if err := noQuery(r); err != nil {
			return err
		}
		id, err := pathID(r, "id")
		if err != nil {
			return err
		}
		v, err := get(r.Context(), workspaceID(r.Context()), id)
		if err != nil {
			return err
		}
		return writeJSON(w, http.StatusOK, v)
	}
}

// updateHandler applies a validated PATCH body to the record named by {id}.
func updateHandler[T, In any, P validating[In]](update updateFunc[T, In]) handlerFunc {
	return func(w http.ResponseWriter, r *http.Request) error {
		id, err := pathID(r, "id")
		if err != nil {
			return err
		}
		var in In
		if err := decodeJSON(w, r, &in, maxJSONBody); err != nil {
			return err
		}
		if err := P(&in).Validate(false); err != nil {
			return err
		}
		v, err := update(r.Context(), workspaceID(r.Context()), id, in)
		if err != nil {
			return err
		}
		return writeJSON(w, http.StatusOK, v)
	}
}

// decodeCreate decodes and validates the body of a create request.
func decodeCreate[In any, P validating[In]](w http.ResponseWriter, r *http.Request) (*In, error) {
	var in In
	if err := decodeJSON(w, r, &in, maxJSONBody); err != nil {
		return nil, err
	}
	if err := P(&in).Validate(true); err != nil {
		return nil, err
	}
	return &in, nil
}

// deleteByID deletes the record named by {id} and answers 204.
func deleteByID(w http.ResponseWriter, r *http.Request, del func(ctx context.Context, ws, id string) error) error {
	id, err := pathID(r, "id")
	if err != nil {
		return err
	}
	if err := del(r.Context(), workspaceID(r.Context()), id); err != nil {
		return err
	}
	w.WriteHeader(http.StatusNoContent)
	return nil
}
