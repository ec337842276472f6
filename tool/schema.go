package tool

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math/big"
	"slices"
	"strconv"
	"strings"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/santhosh-tekuri/jsonschema/v6/kind"
)

// validator checks arguments against an input schema and reports the first
// thing wrong as a Problem, from the validator's structured output.
type validator struct {
	schema *jsonschema.Schema
	// known lists the properties of each object in the schema, by core
	// path with array elements as "[]" ("" for the top level).
	known map[string][]string
}

func newValidator(name string, schema []byte) (*validator, error) {
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(schema))
	if err != nil {
		return nil, err
	}
	c := jsonschema.NewCompiler()
	url := "hands:///" + name + ".json"
	if err := c.AddResource(url, doc); err != nil {
		return nil, err
	}
	s, err := c.Compile(url)
	if err != nil {
		return nil, err
	}
	v := &validator{schema: s, known: map[string][]string{}}
	v.collect("", doc)
	return v, nil
}

// collect records the property names of every object schema under s.
func (v *validator) collect(path string, s any) {
	m, ok := s.(map[string]any)
	if !ok {
		return
	}
	if props, ok := m["properties"].(map[string]any); ok {
		names := make([]string, 0, len(props))
		for k, p := range props {
			names = append(names, k)
			v.collect(join(path, k), p)
		}
		slices.Sort(names)
		v.known[path] = names
	}
	if items, ok := m["items"]; ok {
		v.collect(path+"[]", items)
	}
}

// parseArgs parses raw arguments for validation: numbers stay exact, and
// members whose value is null are dropped, as a model sends null for "not
// given".
func parseArgs(raw json.RawMessage) (any, *Problem) {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || bytes.Equal(raw, []byte("null")) {
		return map[string]any{}, nil
	}
	v, err := jsonschema.UnmarshalJSON(bytes.NewReader(raw))
	if err != nil {
		var se *json.SyntaxError
		msg := err.Error()
		if errors.As(err, &se) {
			msg = fmt.Sprintf("%s at byte %d", strings.TrimPrefix(se.Error(), "json: "), se.Offset)
		}
		return nil, &Problem{Kind: NotJSON, Want: []string{msg}}
	}
	if _, ok := v.(map[string]any); !ok {
		return nil, &Problem{Kind: NotObject, Value: mustMarshal(v)}
	}
	return dropNulls(v), nil
}

func dropNulls(v any) any {
	switch t := v.(type) {
	case map[string]any:
		for k, e := range t {
			if e == nil {
				delete(t, k)
				continue
			}
			t[k] = dropNulls(e)
		}
	case []any:
		for i, e := range t {
			t[i] = dropNulls(e)
		}
	}
	return v
}

func mustMarshal(v any) json.RawMessage {
	b, err := json.Marshal(v)
	if err != nil {
		return json.RawMessage(strconv.Quote(fmt.Sprint(v)))
	}
	return b
}

// check validates args and returns the first problem, or nil. The first is
// chosen so that the message is stable and most useful: the shallowest
// location first; there, unknown parameters (often a misspelling of a
// missing one), then missing ones, then wrong values.
func (v *validator) check(args any) *Problem {
	err := v.schema.Validate(args)
	if err == nil {
		return nil
	}
	var ve *jsonschema.ValidationError
	if !errors.As(err, &ve) {
		return &Problem{Kind: NotAllowed, Want: []string{err.Error()}}
	}
	var best *Problem
	bestRank := [2]int{}
	for _, leaf := range leaves(ve) {
		p := v.problem(leaf, args)
		if p == nil {
			continue
		}
		rank := [2]int{len(leaf.InstanceLocation), kindRank(p.Kind)}
		if best == nil || rank[0] < bestRank[0] || rank[0] == bestRank[0] && rank[1] < bestRank[1] {
			best, bestRank = p, rank
		}
	}
	if best == nil {
		return &Problem{Kind: NotAllowed, Want: []string{"a value the schema accepts"}}
	}
	return best
}

func kindRank(k ProblemKind) int {
	switch k {
	case Unknown:
		return 0
	case Missing:
		return 1
	case WrongType:
		return 2
	}
	return 3
}

func leaves(e *jsonschema.ValidationError) []*jsonschema.ValidationError {
	if len(e.Causes) == 0 {
		return []*jsonschema.ValidationError{e}
	}
	var out []*jsonschema.ValidationError
	for _, c := range e.Causes {
		out = append(out, leaves(c)...)
	}
	return out
}

// problem turns one validator error into a Problem.
func (v *validator) problem(e *jsonschema.ValidationError, args any) *Problem {
	at := pathOf(e.InstanceLocation)
	value := mustMarshal(valueAt(args, e.InstanceLocation))
	switch k := e.ErrorKind.(type) {
	case *kind.Required:
		return &Problem{Kind: Missing, At: at, Params: k.Missing}
	case *kind.AdditionalProperties:
		return &Problem{Kind: Unknown, At: at, Params: slices.Sorted(slices.Values(k.Properties)), Known: v.known[shape(e.InstanceLocation)]}
	case *kind.Type:
		want := slices.DeleteFunc(slices.Clone(k.Want), func(s string) bool { return s == "null" })
		return &Problem{Kind: WrongType, At: at, Value: value, Want: want}
	case *kind.Enum:
		return &Problem{Kind: NotAllowed, At: at, Value: value, Want: jsonList(k.Want)}
	case *kind.Const:
		return &Problem{Kind: NotAllowed, At: at, Value: value, Want: jsonList([]any{k.Want})}
	case *kind.Minimum:
		return &Problem{Kind: OutOfRange, At: at, Value: value, Want: []string{">= " + ratString(k.Want)}}
	case *kind.Maximum:
		return &Problem{Kind: OutOfRange, At: at, Value: value, Want: []string{"<= " + ratString(k.Want)}}
	case *kind.ExclusiveMinimum:
		return &Problem{Kind: OutOfRange, At: at, Value: value, Want: []string{"> " + ratString(k.Want)}}
	case *kind.ExclusiveMaximum:
		return &Problem{Kind: OutOfRange, At: at, Value: value, Want: []string{"< " + ratString(k.Want)}}
	case *kind.MinItems:
		return &Problem{Kind: OutOfRange, At: at, Value: value, Want: []string{fmt.Sprintf("at least %d items", k.Want)}}
	case *kind.MaxItems:
		return &Problem{Kind: OutOfRange, At: at, Value: value, Want: []string{fmt.Sprintf("at most %d items", k.Want)}}
	case *kind.MinLength:
		return &Problem{Kind: OutOfRange, At: at, Value: value, Want: []string{fmt.Sprintf("at least %d characters", k.Want)}}
	case *kind.MaxLength:
		return &Problem{Kind: OutOfRange, At: at, Value: value, Want: []string{fmt.Sprintf("at most %d characters", k.Want)}}
	case *kind.Pattern:
		return &Problem{Kind: NotAllowed, At: at, Value: value, Want: []string{"a string matching " + strconv.Quote(k.Want)}}
	case *kind.FalseSchema:
		parent := e.InstanceLocation[:max(len(e.InstanceLocation)-1, 0)]
		name := ""
		if len(e.InstanceLocation) > 0 {
			name = e.InstanceLocation[len(e.InstanceLocation)-1]
		}
		return &Problem{Kind: Unknown, At: pathOf(parent), Params: []string{name}, Known: v.known[shape(parent)]}
	}
	return nil
}

func jsonList(vs []any) []string {
	out := make([]string, len(vs))
	for i, v := range vs {
		out[i] = string(mustMarshal(v))
	}
	return out
}

func ratString(r *big.Rat) string {
	if r.IsInt() {
		return r.Num().String()
	}
	return r.FloatString(6)
}

// pathOf writes an instance location as a core path: edits[0].old_str.
func pathOf(loc []string) string {
	var b strings.Builder
	for _, s := range loc {
		if _, err := strconv.Atoi(s); err == nil && b.Len() > 0 {
			b.WriteString("[" + s + "]")
			continue
		}
		if b.Len() > 0 {
			b.WriteByte('.')
		}
		b.WriteString(s)
	}
	return b.String()
}

// shape is pathOf with element indexes left out: edits[].old_str.
func shape(loc []string) string {
	var b strings.Builder
	for _, s := range loc {
		if _, err := strconv.Atoi(s); err == nil && b.Len() > 0 {
			b.WriteString("[]")
			continue
		}
		if b.Len() > 0 {
			b.WriteByte('.')
		}
		b.WriteString(s)
	}
	return b.String()
}

func valueAt(v any, loc []string) any {
	for _, s := range loc {
		switch t := v.(type) {
		case map[string]any:
			v = t[s]
		case []any:
			i, err := strconv.Atoi(s)
			if err != nil || i < 0 || i >= len(t) {
				return nil
			}
			v = t[i]
		default:
			return nil
		}
	}
	return v
}
