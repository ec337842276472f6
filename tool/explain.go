package tool

import (
	"maps"
	"math"
	"math/big"
	"net/url"
	"reflect"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/google/jsonschema-go/jsonschema"
)

// The validator of google/jsonschema-go says why it refused a value in a
// sentence about the first keyword that failed, in no fixed order. The
// model needs more: every parameter at fault with its path, the value given
// and what was expected, and the same answer each time. explain walks the
// schema beside the value, for the keywords a model's mistakes break, and
// finds each thing wrong as a Problem; the first is chosen so that the
// message is stable and most useful: the shallowest location first; there,
// unknown parameters (often a misspelling of a missing one), then missing
// ones, then wrong types, then wrong values. It is asked only once the
// validator has refused; a refusal it cannot explain is told in the
// validator's own words.

// maxRefDepth bounds the "$ref"s followed without the value getting
// deeper, against a schema that refers to itself.
const maxRefDepth = 32

// maxSteps bounds the schemas explain visits for one call: alternatives
// nested in a recursive schema multiply. Past it the validator's own words
// are told.
const maxSteps = 100_000

type finding struct {
	p     *Problem
	depth int
}

type explanation struct {
	v *validator
	// args are the arguments as parsed (numbers exact), for the values
	// shown.
	args  any
	found []finding
	refs  int
	steps *int
}

// explain returns the first thing wrong with plain (args with numbers as
// plainNumbers gives them), or nil if it finds nothing.
func (v *validator) explain(args, plain any) *Problem {
	x := &explanation{v: v, args: args, steps: new(int)}
	x.walk(v.root, plain, nil)
	if *x.steps > maxSteps {
		return nil
	}
	x.mergeTypes()
	var best *finding
	for i := range x.found {
		f := &x.found[i]
		if best == nil || f.depth < best.depth || f.depth == best.depth && kindRank(f.p.Kind) < kindRank(best.p.Kind) {
			best = f
		}
	}
	if best == nil {
		return nil
	}
	return best.p
}

func (x *explanation) add(depth int, p *Problem) {
	x.found = append(x.found, finding{p: p, depth: depth})
}

func (x *explanation) value(loc []string) []byte { return mustMarshal(valueAt(x.args, loc)) }

// valid reports whether explain finds nothing wrong with val against s.
func (x *explanation) valid(s *jsonschema.Schema, val any, loc []string) bool {
	sub := &explanation{v: x.v, args: x.args, refs: x.refs, steps: x.steps}
	sub.walk(s, val, loc)
	return len(sub.found) == 0
}

// mergeTypes joins the wrong types found at one place (the branches of an
// anyOf or oneOf) into one, wanting any of their types.
func (x *explanation) mergeTypes() {
	first := map[string]int{}
	out := x.found[:0]
	for _, f := range x.found {
		if f.p.Kind != WrongType {
			out = append(out, f)
			continue
		}
		if i, ok := first[f.p.At]; ok {
			for _, w := range f.p.Want {
				if !slices.Contains(out[i].p.Want, w) {
					out[i].p.Want = append(out[i].p.Want, w)
				}
			}
			continue
		}
		first[f.p.At] = len(out)
		out = append(out, f)
	}
	x.found = out
}

// isFalse reports whether s is the schema false ({"not": {}}).
func isFalse(s *jsonschema.Schema) bool {
	return s.Not != nil && reflect.ValueOf(*s.Not).IsZero()
}

func (x *explanation) walk(s *jsonschema.Schema, val any, loc []string) {
	if *x.steps++; s == nil || *x.steps > maxSteps {
		return
	}
	if isFalse(s) && len(loc) > 0 {
		// A value where none may be: a parameter the object does not take.
		parent := loc[:len(loc)-1]
		x.add(len(loc), &Problem{Kind: Unknown, At: pathOf(parent), Params: []string{loc[len(loc)-1]}, Known: x.v.known[shape(parent)]})
		return
	}
	if s.Ref != "" {
		if r := x.v.ref(s.Ref); r != nil && x.refs < maxRefDepth {
			x.refs++
			x.walk(r, val, loc)
			x.refs--
		}
		if x.v.draft7 {
			return
		}
	}
	if want := types(s); want != nil && !typeIs(val, want) {
		want = slices.DeleteFunc(slices.Clone(want), func(t string) bool { return t == "null" })
		x.add(len(loc), &Problem{Kind: WrongType, At: pathOf(loc), Value: x.value(loc), Want: want})
		return
	}
	at := func(kind ProblemKind, want ...string) {
		x.add(len(loc), &Problem{Kind: kind, At: pathOf(loc), Value: x.value(loc), Want: want})
	}
	if s.Enum != nil && !slices.ContainsFunc(s.Enum, func(e any) bool { return jsonschema.Equal(e, val) }) {
		at(NotAllowed, jsonList(s.Enum)...)
	}
	if s.Const != nil && !jsonschema.Equal(*s.Const, val) {
		at(NotAllowed, jsonList([]any{*s.Const})...)
	}
	if n := number(val); n != nil {
		bound := func(f *float64, bad func(int) bool, op string) {
			if f != nil {
				b := new(big.Rat).SetFloat64(*f)
				if b != nil && bad(n.Cmp(b)) {
					at(OutOfRange, op+" "+ratString(b))
				}
			}
		}
		bound(s.Minimum, func(c int) bool { return c < 0 }, ">=")
		bound(s.Maximum, func(c int) bool { return c > 0 }, "<=")
		bound(s.ExclusiveMinimum, func(c int) bool { return c <= 0 }, ">")
		bound(s.ExclusiveMaximum, func(c int) bool { return c >= 0 }, "<")
		if s.MultipleOf != nil && *s.MultipleOf > 0 {
			if m := new(big.Rat).SetFloat64(*s.MultipleOf); m != nil && !new(big.Rat).Quo(n, m).IsInt() {
				at(NotAllowed, "a multiple of "+ratString(m))
			}
		}
	}
	if str, ok := val.(string); ok {
		n := utf8.RuneCountInString(str)
		if s.MinLength != nil && n < *s.MinLength {
			at(OutOfRange, "at least "+strconv.Itoa(*s.MinLength)+" characters")
		}
		if s.MaxLength != nil && n > *s.MaxLength {
			at(OutOfRange, "at most "+strconv.Itoa(*s.MaxLength)+" characters")
		}
		if s.Pattern != "" {
			if re, err := regexp.Compile(s.Pattern); err == nil && !re.MatchString(str) {
				at(NotAllowed, "a string matching "+strconv.Quote(s.Pattern))
			}
		}
	}
	x.logic(s, val, loc)
	switch t := val.(type) {
	case []any:
		x.array(s, t, loc)
	case map[string]any:
		x.object(s, t, loc)
	}
}

// logic explains allOf, anyOf, oneOf and if/then/else. A "not" that
// matched, or a oneOf that matched twice, is left to the validator's words.
func (x *explanation) logic(s *jsonschema.Schema, val any, loc []string) {
	for _, sub := range s.AllOf {
		x.walk(sub, val, loc)
	}
	for _, alts := range [][]*jsonschema.Schema{s.AnyOf, s.OneOf} {
		x.alternatives(alts, val, loc)
	}
	if s.If != nil {
		if x.valid(s.If, val, loc) {
			x.walk(s.Then, val, loc)
		} else {
			x.walk(s.Else, val, loc)
		}
	}
}

// alternatives explains an anyOf or oneOf that no alternative matched.
// The alternatives whose type the value has are the ones it was meant
// for: what is wrong is told from them; if it has the type of none, the
// wrong type is told once, wanting any of theirs.
func (x *explanation) alternatives(alts []*jsonschema.Schema, val any, loc []string) {
	if len(alts) == 0 {
		return
	}
	var typed, untyped [][]finding
	for _, a := range alts {
		sub := &explanation{v: x.v, args: x.args, refs: x.refs, steps: x.steps}
		sub.walk(a, val, loc)
		if len(sub.found) == 0 {
			return
		}
		if len(sub.found) == 1 && sub.found[0].p.Kind == WrongType && sub.found[0].depth == len(loc) {
			untyped = append(untyped, sub.found)
		} else {
			typed = append(typed, sub.found)
		}
	}
	if len(typed) == 0 {
		typed = untyped
	}
	for _, f := range typed {
		x.found = append(x.found, f...)
	}
}

func (x *explanation) array(s *jsonschema.Schema, a []any, loc []string) {
	item := func(i int, sub *jsonschema.Schema) {
		x.walk(sub, a[i], append(slices.Clip(loc), strconv.Itoa(i)))
	}
	prefix, rest := s.PrefixItems, s.Items
	if x.v.draft7 {
		prefix, rest = s.ItemsArray, s.Items
		if s.ItemsArray != nil {
			rest = s.AdditionalItems
		}
	}
	for i := range a {
		if i < len(prefix) {
			item(i, prefix[i])
		} else if rest != nil {
			item(i, rest)
		}
	}
	if s.MinItems != nil && len(a) < *s.MinItems {
		x.add(len(loc), &Problem{Kind: OutOfRange, At: pathOf(loc), Value: x.value(loc), Want: []string{"at least " + strconv.Itoa(*s.MinItems) + " items"}})
	}
	if s.MaxItems != nil && len(a) > *s.MaxItems {
		x.add(len(loc), &Problem{Kind: OutOfRange, At: pathOf(loc), Value: x.value(loc), Want: []string{"at most " + strconv.Itoa(*s.MaxItems) + " items"}})
	}
}

func (x *explanation) object(s *jsonschema.Schema, m map[string]any, loc []string) {
	// The parameters in the order the schema declares them, if it does
	// (an inferred schema), then the others by name.
	keys := make([]string, 0, len(m))
	for _, k := range s.PropertyOrder {
		if _, ok := m[k]; ok {
			keys = append(keys, k)
		}
	}
	declared := len(keys)
	for k := range m {
		if !slices.Contains(keys[:declared], k) {
			keys = append(keys, k)
		}
	}
	slices.Sort(keys[declared:])
	var patterns []*regexp.Regexp
	var patternSchemas []*jsonschema.Schema
	for p, sub := range s.PatternProperties {
		if re, err := regexp.Compile(p); err == nil {
			patterns = append(patterns, re)
			patternSchemas = append(patternSchemas, sub)
		}
	}
	var extra []string
	for _, k := range keys {
		kloc := append(slices.Clip(loc), k)
		matched := false
		if sub, ok := s.Properties[k]; ok {
			x.walk(sub, m[k], kloc)
			matched = true
		}
		for i, re := range patterns {
			if re.MatchString(k) {
				x.walk(patternSchemas[i], m[k], kloc)
				matched = true
			}
		}
		if matched || s.AdditionalProperties == nil {
			continue
		}
		if isFalse(s.AdditionalProperties) {
			extra = append(extra, k)
			continue
		}
		x.walk(s.AdditionalProperties, m[k], kloc)
	}
	if len(extra) > 0 {
		known := x.v.known[shape(loc)]
		if s.Properties != nil {
			known = slices.Sorted(maps.Keys(s.Properties))
		}
		x.add(len(loc), &Problem{Kind: Unknown, At: pathOf(loc), Params: extra, Known: known})
	}
	missing := func(names []string) {
		var absent []string
		for _, r := range names {
			if _, ok := m[r]; !ok {
				absent = append(absent, r)
			}
		}
		if len(absent) > 0 {
			x.add(len(loc), &Problem{Kind: Missing, At: pathOf(loc), Params: absent})
		}
	}
	missing(s.Required)
	deps := s.DependentRequired
	if x.v.draft7 {
		deps = s.DependencyStrings
	}
	for _, k := range keys {
		if names, ok := deps[k]; ok {
			missing(names)
		}
	}
}

// types returns the types s allows, or nil for any.
func types(s *jsonschema.Schema) []string {
	if s.Type != "" {
		return []string{s.Type}
	}
	return s.Types
}

// typeIs reports whether val (as plainNumbers gives it) is of one of the
// JSON types want; an integer is also a number.
func typeIs(val any, want []string) bool {
	got := "null"
	switch t := val.(type) {
	case string:
		got = "string"
	case bool:
		got = "boolean"
	case int64:
		got = "integer"
	case float64:
		got = "number"
		if _, frac := math.Modf(t); frac == 0 {
			got = "integer"
		}
	case []any:
		got = "array"
	case map[string]any:
		got = "object"
	}
	return slices.Contains(want, got) || got == "integer" && slices.Contains(want, "number")
}

// number returns val as an exact rational, or nil if it is not a number.
func number(val any) *big.Rat {
	switch t := val.(type) {
	case int64:
		return new(big.Rat).SetInt64(t)
	case float64:
		return new(big.Rat).SetFloat64(t)
	}
	return nil
}

// ref returns the schema a "$ref" points to, if it is one ref knows: a
// JSON pointer or an anchor within the document ("#/$defs/a", "#a"), or
// such a fragment after the "$id" of a schema in it; else nil.
func (v *validator) ref(ref string) *jsonschema.Schema {
	if t := v.refs(ref); len(t) == 1 {
		return t[0]
	}
	return nil
}

// refs returns the schemas ref may point to: the one it names, or none if
// it names none ref can follow, or every schema with that anchor.
func (v *validator) refs(ref string) []*jsonschema.Schema {
	id, frag, _ := strings.Cut(ref, "#")
	base := v.root
	if id != "" {
		base = nil
		for s := range schemasOf(v.root) {
			if s.ID == id || strings.TrimSuffix(s.ID, "#") == id {
				base = s
				break
			}
		}
		if base == nil {
			return nil
		}
	}
	if p, err := url.PathUnescape(frag); err == nil {
		frag = p
	}
	if frag == "" {
		return []*jsonschema.Schema{base}
	}
	if !strings.HasPrefix(frag, "/") {
		var out []*jsonschema.Schema
		for s := range schemasOf(base) {
			if s.Anchor == frag || s.DynamicAnchor == frag {
				out = append(out, s)
			}
		}
		return out
	}
	if s := pointer(base, frag); s != nil {
		return []*jsonschema.Schema{s}
	}
	return nil
}

// pointer follows a JSON pointer ("/$defs/a") from s.
func pointer(s *jsonschema.Schema, ptr string) *jsonschema.Schema {
	segs := strings.Split(ptr[1:], "/")
	for i := range segs {
		segs[i] = strings.ReplaceAll(strings.ReplaceAll(segs[i], "~1", "/"), "~0", "~")
	}
	index := func(list []*jsonschema.Schema, seg string) *jsonschema.Schema {
		i, err := strconv.Atoi(seg)
		if err != nil || i < 0 || i >= len(list) {
			return nil
		}
		return list[i]
	}
	for i := 0; i < len(segs) && s != nil; i++ {
		key := segs[i]
		next := ""
		if i+1 < len(segs) {
			next = segs[i+1]
		}
		switch key {
		case "$defs", "definitions", "properties", "patternProperties", "dependentSchemas":
			m := map[string]map[string]*jsonschema.Schema{"$defs": s.Defs, "definitions": s.Definitions, "properties": s.Properties, "patternProperties": s.PatternProperties, "dependentSchemas": s.DependentSchemas}[key]
			s = m[next]
			i++
		case "items":
			if s.ItemsArray != nil {
				s = index(s.ItemsArray, next)
				i++
			} else {
				s = s.Items
			}
		case "prefixItems", "allOf", "anyOf", "oneOf":
			l := map[string][]*jsonschema.Schema{"prefixItems": s.PrefixItems, "allOf": s.AllOf, "anyOf": s.AnyOf, "oneOf": s.OneOf}[key]
			s = index(l, next)
			i++
		case "additionalProperties":
			s = s.AdditionalProperties
		case "additionalItems":
			s = s.AdditionalItems
		case "not":
			s = s.Not
		case "if":
			s = s.If
		case "then":
			s = s.Then
		case "else":
			s = s.Else
		default:
			return nil
		}
	}
	return s
}
