package feedback

import (
	"errors"
	"fmt"
)

// Error codes. They are part of the API: append new ones, never rename or
// reuse one. Each maps to one HTTP status in the server's error table.
const (
	EInternal             = "internal"               // 500
	EUnavailable          = "unavailable"            // 503
	EUnauthenticated      = "unauthenticated"        // 401: no credentials
	EInvalidToken         = "invalid_token"          // 401: malformed or unknown credentials
	ETokenRevoked         = "token_revoked"          // 401: the token was revoked
	EForbidden            = "forbidden"              // 403
	ENotFound             = "not_found"              // 404
	EMethodNotAllowed     = "method_not_allowed"     // 405
	EInvalidParameter     = "invalid_parameter"      // 400: a query or path parameter
	EMalformedBody        = "malformed_body"         // 400: the body is not valid JSON or form data
	EValidation           = "validation_failed"      // 422: the body is well formed but invalid
	EIdempotencyConflict  = "idempotency_conflict"   // 409: same id, different body
	EInvalidTransition    = "invalid_transition"     // 409: a status change the state machine forbids
	EConflict             = "conflict"               // 409: the resource is in a state that forbids this
	EFormNotActive        = "form_not_active"        // 409: the review or survey takes no responses now
	EPosterRevoked        = "poster_revoked"         // 410
	EPayloadTooLarge      = "payload_too_large"      // 413
	EUnsupportedMediaType = "unsupported_media_type" // 415
	ERateLimited          = "rate_limited"           // 429
)

// InvalidParam names one rejected input and says why. Reason is the
// English the API answers; Rule and Args, when the reason is one of
// [Rules], say it again as a key and its arguments, for pages that speak
// the visitor's language. They never go on the wire.
type InvalidParam struct {
	Name   string   `json:"name"`
	Reason string   `json:"reason"`
	Rule   string   `json:"-"`
	Args   []string `json:"-"`
}

// Error is the one error type of the service. Code is one of the E*
// constants; Message is safe to show to a client; Params lists rejected
// inputs; Err is an internal cause that is logged and never sent.
type Error struct {
	Code    string
	Message string
	Params  []InvalidParam
	Err     error
}

// Error implements the error interface.
func (e *Error) Error() string {
	if e.Err != nil {
		return fmt.Sprintf("%s: %s: %v", e.Code, e.Message, e.Err)
	}
	return e.Code + ": " + e.Message
}

// Unwrap returns the internal cause.
func (e *Error) Unwrap() error { return e.Err }

// Errorf returns an [*Error] with the code and a formatted client-safe message.
func Errorf(code, format string, args ...any) *Error {
	return &Error{Code: code, Message: fmt.Sprintf(format, args...)}
}

// ErrorCode returns the code of the first [*Error] in err's chain,
// [EInternal] for any other non-nil error, and "" for nil.
func ErrorCode(err error) string {
	if err == nil {
		return ""
	}
	var e *Error
	if errors.As(err, &e) {
		return e.Code
	}
	return EInternal
}

// ErrorMessage returns the client-safe message of err: the message of its
// [*Error], or a generic sentence for internal errors.
func ErrorMessage(err error) string {
	var e *Error
	if errors.As(err, &e) && e.Code != EInternal {
		return e.Message
	}
	return "An internal error occurred."
}

// ErrorParams returns the invalid parameters carried by err, if any.
func ErrorParams(err error) []InvalidParam {
	var e *Error
	if errors.As(err, &e) {
		return e.Params
	}
	return nil
}

// Problem is an RFC 9457 problem details body (application/problem+json)
// with the service's extension members code, request_id and invalid_params.
type Problem struct {
	Type          string         `json:"type"`
	Title         string         `json:"title"`
	Status        int            `json:"status"`
	Detail        string         `json:"detail"`
	Code          string         `json:"code"`
	RequestID     string         `json:"request_id"`
	InvalidParams []InvalidParam `json:"invalid_params"`
}

// ProblemTypePrefix prefixes every problem type URI; the code follows it.
const ProblemTypePrefix = "urn:feedback:problem:"

// Error implements the error interface, so a client can return a decoded
// problem as an error.
func (p *Problem) Error() string {
	return fmt.Sprintf("%d %s: %s", p.Status, p.Code, p.Detail)
}
