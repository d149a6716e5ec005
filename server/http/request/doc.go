// Package request reads what the handlers of every audience need from a
// request: its id, client IP and principal (set by the root router's
// middleware and the API's gate), URL and query parameters, and JSON or
// form bodies, decoded strictly.
//
// Every error it returns is a [feedback.Error] with a client-safe
// message, ready for [github.com/feedbackhq/feedback/server/http/response]
// to answer.
package request
