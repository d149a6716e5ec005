package idp

import (
	"errors"
	"fmt"

	"github.com/feedbackhq/feedback/shared/feedback"
)

// errNotFound is what lookups return for a row that does not exist, has
// expired or was used.
var errNotFound = errors.New("idp: not found")

// wrap adds the operation to err.
func wrap(err *error, op string) {
	if *err != nil && !errors.Is(*err, errNotFound) {
		*err = fmt.Errorf("idp: %s: %w", op, *err)
	}
}

// orNotFound turns the store's feedback.ENotFound into errNotFound.
func orNotFound(err error) error {
	if feedback.ErrorCode(err) == feedback.ENotFound {
		return errNotFound
	}
	return err
}
