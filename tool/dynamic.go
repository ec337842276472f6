package tool

import (
	"encoding/json"
	"fmt"
)

// Structurer is implemented by tool outputs whose structured content is not
// the output value itself (a result passed through from another MCP server,
// whose structured content is whatever that server sent, or none). A nil
// StructuredContent means the result has none.
type Structurer interface {
	StructuredContent() any
}

// structuredOf returns the structured content of a successful output.
func structuredOf(out any) any {
	if s, ok := out.(Structurer); ok {
		return s.StructuredContent()
	}
	return out
}

// ArgsChecker checks a call's arguments against an input schema given as
// JSON, for tools whose schema is not inferred from a Go type (the tools of
// another MCP server). It reports problems exactly as the built-in tools'
// decoding does.
type ArgsChecker struct {
	name string
	v    *validator
}

// NewArgsChecker compiles schema for the tool named name. A schema that
// does not compile is an error.
func NewArgsChecker(name string, schema json.RawMessage) (*ArgsChecker, error) {
	v, err := newValidator(name, schema)
	if err != nil {
		return nil, fmt.Errorf("input schema of %s: %w", name, err)
	}
	return &ArgsChecker{name: name, v: v}, nil
}

// Check parses raw (empty or null means no arguments) and validates it. It
// returns the arguments as a JSON object, or an INVALID_INPUT *Error saying
// what was wrong. A nil checker checks only that raw is a JSON object.
func (c *ArgsChecker) Check(name string, raw json.RawMessage) (map[string]any, error) {
	args, p := parseArgs(raw)
	if p == nil && c != nil {
		p = c.v.check(args)
	}
	if p != nil {
		return nil, ProblemError(name, p)
	}
	return args.(map[string]any), nil
}
