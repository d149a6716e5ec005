package api

import (
	"context"
	"net/http"
	"strings"

	"github.com/feedbackhq/feedback/server/http/request"
	"github.com/feedbackhq/feedback/server/http/response"
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
func listHandler[T any](list listFunc[T], filters ...string) response.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) error {
		p, err := request.ListParams(r, filters...)
		if err != nil {
			return err
		}
		items, total, err := list(r.Context(), request.WorkspaceID(r.Context()), p)
		if err != nil {
			return err
		}
		return response.Page(w, items, total, p)
	}
}

// subListHandler answers a page of the records under the {id} in the path.
func subListHandler[T any](list subListFunc[T], filters ...string) response.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) error {
		id, err := request.PathID(r, "id")
		if err != nil {
			return err
		}
		return listHandler(func(ctx context.Context, ws string, p feedback.ListParams) ([]T, int, error) {
			return list(ctx, ws, id, p)
		}, filters...)(w, r)
	}
}

// getHandler answers the record named by {id}.
func getHandler[T any](get getFunc[T]) response.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) error {
		if err := request.NoQuery(r); err != nil {
			return err
		}
		id, err := request.PathID(r, "id")
		if err != nil {
			return err
		}
		v, err := get(r.Context(), request.WorkspaceID(r.Context()), id)
		if err != nil {
			return err
		}
		return response.JSON(w, http.StatusOK, v)
	}
}

// updateHandler applies a validated PATCH body to the record named by {id}.
func updateHandler[T, In any, P validating[In]](update updateFunc[T, In]) response.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) error {
		id, err := request.PathID(r, "id")
		if err != nil {
			return err
		}
		var in In
		if err := request.DecodeJSON(w, r, &in, request.MaxJSONBody); err != nil {
			return err
		}
		if err := P(&in).Validate(false); err != nil {
			return err
		}
		v, err := update(r.Context(), request.WorkspaceID(r.Context()), id, in)
		if err != nil {
			return err
		}
		return response.JSON(w, http.StatusOK, v)
	}
}

// decodeCreate decodes and validates the body of a create request.
func decodeCreate[In any, P validating[In]](w http.ResponseWriter, r *http.Request) (*In, error) {
	var in In
	if err := request.DecodeJSON(w, r, &in, request.MaxJSONBody); err != nil {
		return nil, err
	}
	if err := P(&in).Validate(true); err != nil {
		return nil, err
	}
	return &in, nil
}

// deleteByID deletes the record named by {id} and answers 204.
func deleteByID(w http.ResponseWriter, r *http.Request, del func(ctx context.Context, ws, id string) error) error {
	id, err := request.PathID(r, "id")
	if err != nil {
		return err
	}
	if err := del(r.Context(), request.WorkspaceID(r.Context()), id); err != nil {
		return err
	}
	w.WriteHeader(http.StatusNoContent)
	return nil
}

// writeCreated answers 201 with a Location header for path, relative to
// the API prefix the request used (/api/v1 or /api).
func writeCreated(w http.ResponseWriter, r *http.Request, path string, v any) error {
	w.Header().Set("Location", apiPrefix(r)+path)
	return response.JSON(w, http.StatusCreated, v)
}

// apiPrefix returns the API prefix of the request's path.
func apiPrefix(r *http.Request) string {
	if strings.HasPrefix(r.URL.Path, "/api/v1/") {
		return "/api/v1"
	}
	return "/api"
}
