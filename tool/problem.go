package tool

import (
	"encoding/json"
	"fmt"
	"strings"
)

// ProblemKind says what was wrong with a call's arguments.
type ProblemKind int

// The kinds of Problem.
const (
	// NotJSON: the arguments are not valid JSON; Want holds the decoder's
	// complaint.
	NotJSON ProblemKind = iota + 1
	// NotObject: the arguments are JSON but not an object; Value is what was
	// sent.
	NotObject
	// Missing: required parameters (Params) are absent from the object At.
	Missing
	// Unknown: parameters (Params) that the object At does not have; Known
	// lists the ones it has.
	Unknown
	// WrongType: the value at At has the wrong JSON type; Want lists the
	// types accepted.
	WrongType
	// NotAllowed: the value at At is not one of the values in Want.
	NotAllowed
	// OutOfRange: the value at At breaks a bound; Want holds the bound as
	// text, e.g. ">= 0" or "at least 1 item".
	OutOfRange
)

// Problem says, as data, what the schema found wrong with a call's
// arguments: the parameter, the value given and what was expected. A profile
// renders it in its own words and names.
type Problem struct {
	Kind ProblemKind
	// At is the core path of the parameter (WrongType, NotAllowed,
	// OutOfRange) or of the object holding the parameters (Missing,
	// Unknown): "" for the arguments themselves, else like "edits[0]".
	At string
	// Params are the parameters missing or unknown, by name within At.
	Params []string
	// Known are the parameters the object At accepts (for Unknown).
	Known []string
	// Value is the value given, as JSON.
	Value json.RawMessage
	// Want is what was expected: JSON types, allowed values (as JSON) or a
	// bound.
	Want []string
}

// String renders the problem with core names.
func (p *Problem) String() string { return p.text(nil) }

func (p *Problem) reword(n Names) any { return p.text(n) }

// text renders the problem, naming parameters as n does (core names when n
// is nil).
func (p *Problem) text(n Names) string {
	name := func(path string) string {
		if n == nil {
			return path
		}
		return n.Param(path)
	}
	child := func(k string) string { return lastSegment(name(join(p.At, k))) }
	switch p.Kind {
	case NotJSON:
		return fmt.Sprintf("are not valid JSON: %s; send a JSON object", strings.Join(p.Want, ""))
	case NotObject:
		return fmt.Sprintf("must be a JSON object, got %s", article(jsonKindOf(p.Value)))
	case Missing:
		ks := mapSlice(p.Params, child)
		word := "parameter"
		if len(ks) > 1 {
			word = "parameters"
		}
		return fmt.Sprintf("missing required %s %s%s", word, strings.Join(ks, ", "), in(name(p.At)))
	case Unknown:
		ks := mapSlice(p.Params, func(k string) string { return k })
		if len(p.Known) == 0 {
			return fmt.Sprintf("unknown parameter %s%s; it takes no parameters: call it with {}", strings.Join(ks, ", "), in(name(p.At)))
		}
		return fmt.Sprintf("unknown parameter %s%s; the parameters are %s", strings.Join(ks, ", "), in(name(p.At)), strings.Join(mapSlice(p.Known, child), ", "))
	case WrongType:
		return fmt.Sprintf("parameter %s: %s has type %s, want %s", name(p.At), p.Value, jsonKindOf(p.Value), orList(p.Want))
	case NotAllowed:
		return fmt.Sprintf("parameter %s: %s is not allowed, want %s", name(p.At), p.Value, orList(p.Want))
	case OutOfRange:
		return fmt.Sprintf("parameter %s: %s is out of range, want %s", name(p.At), p.Value, strings.Join(p.Want, " and "))
	}
	return "invalid arguments"
}

func article(kind string) string {
	switch kind {
	case "null", "nothing":
		return kind
	case "array", "object", "integer":
		return "an " + kind
	}
	return "a " + kind
}

func in(at string) string {
	if at == "" {
		return ""
	}
	return " in " + at
}

func join(at, k string) string {
	if at == "" {
		return k
	}
	return at + "." + k
}

func lastSegment(path string) string {
	if i := strings.LastIndexByte(path, '.'); i >= 0 {
		return path[i+1:]
	}
	return path
}

func orList(want []string) string {
	if len(want) == 1 {
		return want[0]
	}
	return "one of " + strings.Join(want, ", ")
}

func mapSlice(s []string, f func(string) string) []string {
	out := make([]string, len(s))
	for i, v := range s {
		out[i] = f(v)
	}
	return out
}

// jsonKindOf names the JSON type of a value: string, integer, number,
// boolean, array, object or null.
func jsonKindOf(v json.RawMessage) string {
	s := strings.TrimSpace(string(v))
	if s == "" {
		return "nothing"
	}
	switch s[0] {
	case '"':
		return "string"
	case '{':
		return "object"
	case '[':
		return "array"
	case 't', 'f':
		return "boolean"
	case 'n':
		return "null"
	}
	if strings.ContainsAny(s, ".eE") {
		return "number"
	}
	return "integer"
}
