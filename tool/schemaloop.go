package tool

import (
	"fmt"
	"iter"
	"reflect"

	"github.com/google/jsonschema-go/jsonschema"
)

// The validator follows a "$ref", and the keywords that apply a schema to
// the same value (allOf, anyOf, oneOf, not, if, then, else, dependent
// schemas), without any limit: a schema whose references loop without
// going into the value ({"$defs": {"a": {"$ref": "#/$defs/b"}, "b":
// {"$ref": "#/$defs/a"}}}) would recurse until the Go runtime stops the
// whole process, which another MCP server must not be able to do. Such a
// schema is refused when it is compiled. A loop through properties or
// items is fine: each turn goes one level into the value.

// checkLoops returns an error naming a loop of references in v's schema
// that does not go into the value.
func (v *validator) checkLoops() error {
	const (
		unseen = iota
		open
		done
	)
	state := map[*jsonschema.Schema]int{}
	var visit func(s *jsonschema.Schema) error
	visit = func(s *jsonschema.Schema) error {
		switch state[s] {
		case open:
			return fmt.Errorf("its references loop without going into the value (at %s)", describe(s))
		case done:
			return nil
		}
		state[s] = open
		for t := range v.inPlace(s) {
			if err := visit(t); err != nil {
				return err
			}
		}
		state[s] = done
		return nil
	}
	for s := range schemasOf(v.root) {
		if err := visit(s); err != nil {
			return err
		}
	}
	return nil
}

func describe(s *jsonschema.Schema) string {
	switch {
	case s.Ref != "":
		return fmt.Sprintf("$ref %q", s.Ref)
	case s.DynamicRef != "":
		return fmt.Sprintf("$dynamicRef %q", s.DynamicRef)
	}
	return "a subschema applied to its own value"
}

// inPlace yields the schemas s applies to the value s itself is applied
// to. A reference refs cannot follow may point anywhere in the document.
func (v *validator) inPlace(s *jsonschema.Schema) iter.Seq[*jsonschema.Schema] {
	return func(yield func(*jsonschema.Schema) bool) {
		var subs []*jsonschema.Schema
		for _, ref := range []string{s.Ref, s.DynamicRef} {
			if ref == "" {
				continue
			}
			t := v.refs(ref)
			if len(t) == 0 {
				for a := range schemasOf(v.root) {
					t = append(t, a)
				}
			}
			subs = append(subs, t...)
		}
		subs = append(subs, s.AllOf...)
		subs = append(subs, s.AnyOf...)
		subs = append(subs, s.OneOf...)
		subs = append(subs, s.Not, s.If, s.Then, s.Else)
		for _, d := range s.DependentSchemas {
			subs = append(subs, d)
		}
		for _, d := range s.DependencySchemas {
			subs = append(subs, d)
		}
		for _, t := range subs {
			if t != nil && !yield(t) {
				return
			}
		}
	}
}

var (
	schemaPtr   = reflect.TypeFor[*jsonschema.Schema]()
	schemaSlice = reflect.TypeFor[[]*jsonschema.Schema]()
	schemaMap   = reflect.TypeFor[map[string]*jsonschema.Schema]()
)

// schemasOf yields s and every schema under it.
func schemasOf(s *jsonschema.Schema) iter.Seq[*jsonschema.Schema] {
	return func(yield func(*jsonschema.Schema) bool) {
		var walk func(s *jsonschema.Schema) bool
		walk = func(s *jsonschema.Schema) bool {
			if s == nil {
				return true
			}
			if !yield(s) {
				return false
			}
			v := reflect.ValueOf(s).Elem()
			for i := range v.NumField() {
				f := v.Field(i)
				switch f.Type() {
				case schemaPtr:
					if !walk(f.Interface().(*jsonschema.Schema)) {
						return false
					}
				case schemaSlice:
					for _, c := range f.Interface().([]*jsonschema.Schema) {
						if !walk(c) {
							return false
						}
					}
				case schemaMap:
					for _, c := range f.Interface().(map[string]*jsonschema.Schema) {
						if !walk(c) {
							return false
						}
					}
				}
			}
			return true
		}
		walk(s)
	}
}
