package auth

import (
	"fmt"
	"regexp"
)

// SignInError is a refused sign-in: Message says why, in words, to the
// person signing in; Detail, for the log only, is what went wrong
// underneath (a library's or the provider's text), or nil.
type SignInError struct {
	Message string
	Detail  error
}

// Error returns the message and the detail, for the log.
func (e *SignInError) Error() string {
	if e.Detail == nil {
		return e.Message
	}
	return e.Message + " (" + e.Detail.Error() + ")"
}

// Unwrap returns the detail.
func (e *SignInError) Unwrap() error { return e.Detail }

func refuse(message string, detail error) error {
	return &SignInError{Message: message, Detail: detail}
}

// errorCode matches the OAuth error codes that a page may name.
var errorCode = regexp.MustCompile(`^[a-z_]{1,40}$`)

// providerError is the refusal of a callback that carries the provider's
// error instead of a code. The error_description goes to the log: RFC
// 6749 meant it for developers, and its text is the provider's.
func providerError(code, description string) error {
	msg := "The identity provider did not sign you in."
	switch {
	case code == "access_denied":
		msg = "The sign-in was cancelled or refused at the identity provider."
	case errorCode.MatchString(code):
		msg = "The identity provider did not sign you in (it answered " + code + ")."
	}
	return refuse(msg+" Try again, or ask your administrator if it persists.",
		fmt.Errorf("the provider answered error=%q error_description=%q", code, description))
}
