package tool

import (
	"errors"
	"fmt"
	"slices"
	"strings"
)

// Error is a tool failure the model reads and can correct: a code, a message
// that names the value involved and the fix, and structured details from
// which a profile renders the error in its own words.
type Error struct {
	Code Code
	// Message is the text in the core's words, with core tool and parameter
	// names; Reword renders it with the names a profile exposes.
	Message string
	// Details holds named values (for example "path") for profiles whose
	// documents fix the error text.
	Details map[string]any
	// Problem says what was wrong with the arguments when the schema refused
	// them (Code is then InvalidInput).
	Problem *Problem
	// Output is what the call produced although it failed (a command that
	// exited non-zero where that is an error), for profiles to render; it
	// is not part of the structured content.
	Output any
	// Err is the underlying cause, if any, for errors.Is and logs; it is never
	// shown to the model.
	Err error

	// parts are the message before formatting, kept so that the Param,
	// Field and ToolName arguments can be shown under other names.
	parts []part
}

// part is one Errorf or Appendf of a message.
type part struct {
	format string
	args   []any
}

// Param is a parameter's core name inside an error message (a dotted path
// such as "edits[0].old_str" for a field of an array element). Errorf shows
// it as it is; a profile that exposes the parameter under another name shows
// that name instead.
type Param string

// Field is a parameter path like Param, shown by its last name only
// ("old_str" for "edits[0].old_str"), for messages that list the fields of
// an element.
type Field string

// String returns the field's last name.
func (f Field) String() string { return lastSegment(string(f)) }

// ToolName is a core tool's name inside an error message; a profile shows
// the name it exposes.
type ToolName string

// Names maps core names to the names a model sees.
type Names interface {
	// Tool returns the exposed name of the core tool.
	Tool(core string) string
	// Param returns the exposed form of a core parameter path.
	Param(core string) string
}

// rewordable is an Errorf argument that shows differently under Names.
type rewordable interface {
	reword(Names) any
}

func (p Param) reword(n Names) any    { return n.Param(string(p)) }
func (t ToolName) reword(n Names) any { return n.Tool(string(t)) }
func (f Field) reword(n Names) any    { return lastSegment(n.Param(string(f))) }

// Errorf returns an *Error with the given code and a formatted message. A
// %w verb wraps the cause as with fmt.Errorf, and the cause is kept in Err.
// Param and ToolName arguments are names a profile may show otherwise.
func Errorf(code Code, format string, args ...any) *Error {
	err := fmt.Errorf(format, args...)
	return &Error{Code: code, Message: err.Error(), Err: errors.Unwrap(err), parts: []part{{format, args}}}
}

// Appendf adds formatted text to the message, with the same arguments as
// Errorf, and returns e.
func (e *Error) Appendf(format string, args ...any) *Error {
	e.Message += fmt.Sprintf(format, args...)
	e.parts = append(e.parts, part{format, args})
	return e
}

// With returns e with a detail added, for chaining at the point of creation.
func (e *Error) With(key string, value any) *Error {
	if e.Details == nil {
		e.Details = map[string]any{}
	}
	e.Details[key] = value
	return e
}

// Reword returns a copy of e whose message shows tool and parameter names
// as n names them. An error made without Errorf's arguments is returned as
// it is.
func (e *Error) Reword(n Names) *Error {
	if !slices.ContainsFunc(e.parts, func(p part) bool { return slices.ContainsFunc(p.args, isRewordable) }) {
		return e
	}
	var msg strings.Builder
	for _, p := range e.parts {
		args := make([]any, len(p.args))
		for i, a := range p.args {
			if r, ok := a.(rewordable); ok {
				a = r.reword(n)
			}
			args[i] = a
		}
		msg.WriteString(fmt.Errorf(p.format, args...).Error())
	}
	c := *e
	c.Message = msg.String()
	return &c
}

func isRewordable(a any) bool {
	_, ok := a.(rewordable)
	return ok
}

// Error returns the text of seed 000: "[CODE] message".
func (e *Error) Error() string { return "[" + e.Code.String() + "] " + e.Message }

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
