package request

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"mime"
	"net/http"
	"strings"

	"github.com/feedbackhq/feedback/shared/feedback"
)

// MaxJSONBody is the size limit of an API body.
const MaxJSONBody = 1 << 20

// DecodeJSON reads a JSON object of at most limit bytes into dst,
// rejecting other media types, strings that are not valid Unicode,
// unknown fields and trailing data.
func DecodeJSON(w http.ResponseWriter, r *http.Request, dst any, limit int64) error {
	body, err := ReadJSON(w, r, limit)
	if err != nil {
		return err
	}
	return unmarshal(body, dst)
}

// ReadJSON reads a JSON body of at most limit bytes, refusing other
// media types.
func ReadJSON(w http.ResponseWriter, r *http.Request, limit int64) ([]byte, error) {
	if !IsMediaType(r, "application/json") {
		return nil, feedback.Errorf(feedback.EUnsupportedMediaType, "The body must be application/json.")
	}
	return ReadBody(w, r, limit)
}

// ReadBody reads the whole body up to limit bytes.
func ReadBody(w http.ResponseWriter, r *http.Request, limit int64) ([]byte, error) {
	b, err := io.ReadAll(http.MaxBytesReader(w, r.Body, limit))
	var tooBig *http.MaxBytesError
	if errors.As(err, &tooBig) {
		return nil, feedback.Errorf(feedback.EPayloadTooLarge, "The body must be at most %d bytes.", limit)
	}
	if err != nil {
		return nil, feedback.Errorf(feedback.EMalformedBody, "The body could not be read.")
	}
	return b, nil
}

// unmarshal decodes one JSON value into dst, naming the offending
// field when a string is not valid Unicode (see [CheckJSONText]), or a
// value has the wrong type or is unknown.
func unmarshal(body []byte, dst any) error {
	if err := CheckJSONText(body); err != nil {
		return err
	}
	return DecodeStrict(body, dst)
}

// DecodeStrict is unmarshal without the check of the strings'
// text, for an envelope whose items are checked one by one.
func DecodeStrict(body []byte, dst any) error {
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.DisallowUnknownFields()
	if err := dec.Decode(dst); err != nil {
		return jsonError(err)
	}
	if dec.More() {
		return feedback.Errorf(feedback.EMalformedBody, "The body must hold one JSON value.")
	}
	return nil
}

func jsonError(err error) error {
	var typeErr *json.UnmarshalTypeError
	var syntaxErr *json.SyntaxError
	switch {
	case errors.As(err, &typeErr):
		name := typeErr.Field
		if name == "" {
			name = "body"
		}
		return &feedback.Error{Code: feedback.EValidation, Message: "Field " + name + " has the wrong type.",
			Params: []feedback.InvalidParam{{Name: name, Reason: "must be " + jsonTypeName(typeErr.Type.String())}}}
	case strings.HasPrefix(err.Error(), "json: unknown field "):
		name := strings.Trim(strings.TrimPrefix(err.Error(), "json: unknown field "), `"`)
		return &feedback.Error{Code: feedback.EValidation, Message: "Unknown field " + name + ".",
			Params: []feedback.InvalidParam{{Name: name, Reason: "is not a known field"}}}
	case errors.As(err, &syntaxErr), errors.Is(err, io.ErrUnexpectedEOF), errors.Is(err, io.EOF):
		return feedback.Errorf(feedback.EMalformedBody, "The body is not valid JSON.")
	}
	return &feedback.Error{Code: feedback.EValidation, Message: "The body is invalid.",
		Params: []feedback.InvalidParam{{Name: "body", Reason: err.Error()}}}
}

func jsonTypeName(goType string) string {
	switch {
	case strings.Contains(goType, "int"):
		return "an integer"
	case strings.Contains(goType, "bool"):
		return "a boolean"
	case strings.HasPrefix(goType, "[]"):
		return "an array"
	case strings.HasPrefix(goType, "map"), strings.Contains(goType, "."):
		return "an object or a formatted string"
	case strings.Contains(goType, "string"), strings.Contains(goType, "Status"):
		return "a string"
	}
	return "of another type"
}

// IsMediaType reports whether the request body is of media type want.
func IsMediaType(r *http.Request, want string) bool {
	mt, _, err := mime.ParseMediaType(r.Header.Get("Content-Type"))
	return err == nil && strings.EqualFold(mt, want)
}
