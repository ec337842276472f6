package tool

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"math/big"
	"slices"
	"strconv"
	"strings"

	"github.com/google/jsonschema-go/jsonschema"
)

// validator checks arguments against an input schema. The verdict is that
// of github.com/google/jsonschema-go (the validator the MCP SDK links);
// when it refuses, explain finds what was wrong, as data, and the first
// thing wrong becomes the Problem the model is told.
type validator struct {
	resolved *jsonschema.Resolved
	root     *jsonschema.Schema
	// draft7: "$ref" hides its sibling keywords.
	draft7 bool
	// known lists the properties of each object in the schema, by core
	// path with array elements as "[]" ("" for the top level).
	known map[string][]string
}

// newValidator compiles a schema given as JSON (another MCP server's).
// Schemas of drafts older than the validator knows are read as their
// nearest successor (see normalizeDraft).
func newValidator(name string, raw []byte) (*validator, error) {
	raw, err := normalizeDraft(raw)
	if err != nil {
		return nil, err
	}
	s := new(jsonschema.Schema)
	if err := json.Unmarshal(raw, s); err != nil {
		return nil, err
	}
	return compile(name, s)
}

// compile resolves s, which is the validator's from now on: it must not
// change after.
func compile(name string, s *jsonschema.Schema) (*validator, error) {
	rs, err := s.Resolve(&jsonschema.ResolveOptions{BaseURI: "hands:///" + name + ".json"})
	if err != nil {
		return nil, err
	}
	v := &validator{resolved: rs, root: s, known: map[string][]string{}}
	v.draft7 = strings.HasSuffix(strings.TrimSuffix(s.Schema, "#"), "json-schema.org/draft-07/schema")
	if err := v.checkLoops(); err != nil {
		return nil, err
	}
	v.collect("", s)
	return v, nil
}

// collect records the property names of every object schema under s.
func (v *validator) collect(path string, s *jsonschema.Schema) {
	if s == nil {
		return
	}
	if s.Properties != nil {
		names := make([]string, 0, len(s.Properties))
		for k, p := range s.Properties {
			names = append(names, k)
			v.collect(join(path, k), p)
		}
		slices.Sort(names)
		v.known[path] = names
	}
	v.collect(path+"[]", s.Items)
}

// The values of "$schema" the validator knows.
const (
	draft07   = "http://json-schema.org/draft-07/schema#"
	draft2020 = "https://json-schema.org/draft/2020-12/schema"
)

// normalizeDraft rewrites a schema of a draft the validator does not know
// as its nearest successor: draft-04 and draft-06 as draft-07 (draft-04's
// boolean exclusiveMinimum and exclusiveMaximum become the bound itself),
// 2019-09 as 2020-12; spellings of a known draft's URI without "#" or with
// the other scheme as that draft. An unknown "$schema" is left out, so the
// schema is read as 2020-12, MCP's default.
func normalizeDraft(raw []byte) ([]byte, error) {
	if !bytes.Contains(raw, []byte(`"$schema"`)) && !bytes.Contains(raw, []byte(`"exclusiveM`)) {
		return raw, nil
	}
	var doc any
	if err := json.Unmarshal(raw, &doc); err != nil {
		return nil, err
	}
	m, ok := doc.(map[string]any)
	if !ok {
		return raw, nil
	}
	if id, ok := m["$schema"].(string); ok {
		u := strings.TrimSuffix(id, "#")
		u = strings.TrimPrefix(strings.TrimPrefix(u, "http://"), "https://")
		switch u {
		case "json-schema.org/draft-04/schema", "json-schema.org/draft-06/schema", "json-schema.org/draft-07/schema":
			m["$schema"] = draft07
		case "json-schema.org/draft/2019-09/schema", "json-schema.org/draft/2020-12/schema":
			m["$schema"] = draft2020
		default:
			delete(m, "$schema")
		}
	}
	exclusiveBounds(doc)
	return json.Marshal(doc)
}

// exclusiveBounds turns draft-04's "exclusiveMinimum": true beside a
// "minimum" into "exclusiveMinimum": bound (and the same for maximum), in
// every object of the schema.
func exclusiveBounds(doc any) {
	switch t := doc.(type) {
	case map[string]any:
		for _, k := range [][2]string{{"exclusiveMinimum", "minimum"}, {"exclusiveMaximum", "maximum"}} {
			ex, ok := t[k[0]].(bool)
			if !ok {
				continue
			}
			bound, isNum := t[k[1]].(float64)
			delete(t, k[0])
			if ex && isNum {
				t[k[0]] = bound
				delete(t, k[1])
			}
		}
		for _, e := range t {
			exclusiveBounds(e)
		}
	case []any:
		for _, e := range t {
			exclusiveBounds(e)
		}
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
	v, err := unmarshalExact(raw)
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

// unmarshalExact decodes one JSON value, numbers as json.Number.
func unmarshalExact(raw []byte) (any, error) {
	d := json.NewDecoder(bytes.NewReader(raw))
	d.UseNumber()
	var v any
	if err := d.Decode(&v); err != nil {
		return nil, err
	}
	if _, err := d.Token(); err != io.EOF {
		return nil, errors.New("invalid character after top-level value")
	}
	return v, nil
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

// plainNumbers returns a copy of v (as parseArgs gives it) with numbers as
// the validator takes them: an int64 where the number is one, else a
// float64 (beyond float64's range, the largest float64 of its sign: the
// schema's bounds still apply, and the Go decoding refuses it after).
func plainNumbers(v any) any {
	switch t := v.(type) {
	case json.Number:
		if i, err := t.Int64(); err == nil {
			return i
		}
		f, _ := strconv.ParseFloat(string(t), 64)
		if math.IsInf(f, 0) {
			f = math.Copysign(math.MaxFloat64, f)
		}
		return f
	case map[string]any:
		out := make(map[string]any, len(t))
		for k, e := range t {
			out[k] = plainNumbers(e)
		}
		return out
	case []any:
		out := make([]any, len(t))
		for i, e := range t {
			out[i] = plainNumbers(e)
		}
		return out
	}
	return v
}

// check validates args and returns the first problem, or nil.
func (v *validator) check(args any) *Problem {
	plain := plainNumbers(args)
	err := v.resolved.Validate(plain)
	if err == nil {
		return nil
	}
	if p := v.explain(args, plain); p != nil {
		return p
	}
	return &Problem{Kind: NotAllowed, Value: mustMarshal(args), Want: []string{"a value the schema accepts (" + innermost(err) + ")"}}
}

// innermost is the validator's own reason, without the schema locations
// it wraps it in ("validating root: validating /properties/n: ...").
func innermost(err error) string {
	msg := err.Error()
	for strings.HasPrefix(msg, "validating ") {
		i := strings.Index(msg, ": ")
		if i < 0 {
			break
		}
		msg = msg[i+2:]
	}
	return msg
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
