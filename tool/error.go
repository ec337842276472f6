package tool

import (
	"errors"
	"fmt"
)

// Code is a machine-readable error code such as "PATH_NOT_FOUND". Error text
// shown to a model starts with the code in brackets: "[PATH_NOT_FOUND] ...".
type Code string

// Codes the executor itself produces. Tools use the codes of package
// internal/tools, which re-declares these.
const (
	// InvalidInput: the arguments do not decode or do not match the schema.
	InvalidInput Code = "INVALID_INPUT"
	// UnknownTool: no tool of that name is registered or it is disabled.
	UnknownTool Code = "UNKNOWN_TOOL"
	// PermissionDenied: a policy or a hook refused the call.
	PermissionDenied Code = "PERMISSION_DENIED"
	// Canceled: the call was cancelled or its deadline passed.
	Canceled Code = "CANCELED"
	// InternalError: the tool panicked or failed in a way it did not classify.
	InternalError Code = "INTERNAL_ERROR"
)

// Error is a tool failure the model reads and can correct: a code, a message
// that names the value involved and the fix, and optional details that a
// profile may use to render the error in its own words.
type Error struct {
	Code    Code
	Message string
	// Details holds named values (for example "path") for profiles whose
	// documents fix the error text.
	Details map[string]any
	// Err is the underlying cause, if any, for errors.Is and logs; it is never
	// shown to the model.
	Err error
}

// Errorf returns an *Error with the given code and a formatted message. A
// %w verb wraps the cause as with fmt.Errorf, and the cause is kept in Err.
func Errorf(code Code, format string, args ...any) *Error {
	err := fmt.Errorf(format, args...)
	return &Error{Code: code, Message: err.Error(), Err: errors.Unwrap(err)}
}

// With returns e with a detail added, for chaining at the point of creation.
func (e *Error) With(key string, value any) *Error {
	if e.Details == nil {
		e.Details = map[string]any{}
	}
	e.Details[key] = value
	return e
}

// Error returns the text of seed 000: "[CODE] message".
func (e *Error) Error() string { return "[" + string(e.Code) + "] " + e.Message }

// Unwrap returns the cause.
func (e *Error) Unwrap() error { return e.Err }

// AsError returns err as an *Error: itself if it is one (or wraps one), else
// an INTERNAL_ERROR carrying its text.
func AsError(err error) *Error {
	var te *Error
	if errors.As(err, &te) {
		return te
	}
	return &Error{Code: InternalError, Message: err.Error(), Err: err}
}
