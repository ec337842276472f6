package main

import (
	"encoding/json"
	"regexp"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/hands-dev/hands"
)

// The documented fields of each API's tool definition, and its rule for
// names:
//   - Anthropic Messages API, tools[]: name (^[a-zA-Z0-9_-]{1,64}$),
//     description, input_schema (a JSON Schema of type object); optional
//     cache_control and type.
//   - OpenAI Chat Completions, tools[]: {"type":"function","function":{name
//     (^[a-zA-Z0-9_-]{1,64}$), description, parameters (JSON Schema),
//     strict}}.
//   - Gemini API, tools[]: {"functionDeclarations":[{name (letters, digits,
//     underscores, dots, colons and dashes, at most 64), description,
//     parameters (an OpenAPI 3.0 subset: no additionalProperties, a single
//     type, nullable instead of a null type)}]}.
//   - MCP tools/list, tools[]: name, title, description, inputSchema (type
//     object), outputSchema, annotations, _meta, icons.
var (
	apiName    = regexp.MustCompile(`^[a-zA-Z0-9_-]{1,64}$`)
	geminiName = regexp.MustCompile(`^[a-zA-Z0-9_.:-]{1,64}$`)
	formatKeys = map[string][]string{
		"anthropic": {"name", "description", "input_schema", "cache_control", "type"},
		"openai":    {"type", "function"},
		"function":  {"name", "description", "parameters", "strict"},
		"gemini":    {"functionDeclarations"},
		"decl":      {"name", "description", "parameters", "response", "behavior"},
		"mcp":       {"name", "title", "description", "inputSchema", "outputSchema", "annotations", "_meta", "icons"},
	}
	geminiTypes = []string{"string", "number", "integer", "boolean", "array", "object"}
)

// TestToolsFormatShapes checks `hands tools --format` for every profile
// against each API's documented fields.
func TestToolsFormatShapes(t *testing.T) {
	root := workspace(t)
	for _, profile := range hands.Profiles() {
		rt, err := hands.New(hands.Options{Roots: []string{root}, Profile: profile})
		if err != nil {
			t.Fatal(err)
		}
		var names []string
		for _, i := range rt.Tools() {
			names = append(names, i.Name)
		}
		rt.Close()
		for _, format := range toolFormats {
			t.Run(profile+"/"+format, func(t *testing.T) {
				out, errOut, code := runCLI(t, "", "tools", "--root", root, "--profile", profile, "--format", format)
				if code != exitOK {
					t.Fatalf("code %d: %s", code, errOut)
				}
				var v any
				if err := json.Unmarshal([]byte(out), &v); err != nil {
					t.Fatalf("not JSON: %v\n%s", err, out)
				}
				got := checkShape(t, format, v)
				if !slices.Equal(got, names) {
					t.Errorf("tools %v, want the profile's %v", got, names)
				}
			})
		}
	}
}

// checkShape checks one format's document and returns the tool names in
// it.
func checkShape(t *testing.T, format string, v any) []string {
	t.Helper()
	var names []string
	switch format {
	case "anthropic", "openai", "mcp":
		list, ok := v.([]any)
		if !ok {
			t.Fatalf("%s: want an array of tools, got %T", format, v)
		}
		for _, e := range list {
			required := []string{"name"}
			if format == "openai" {
				required = []string{"type", "function"}
			}
			tl := object(t, format, e, required...)
			var name, schemaKey string
			var schema any
			switch format {
			case "anthropic":
				name, schemaKey = str(t, tl["name"]), "input_schema"
				schema = tl[schemaKey]
				str(t, tl["description"])
			case "openai":
				if tl["type"] != "function" {
					t.Errorf("openai: type %v, want function", tl["type"])
				}
				fn := object(t, "function", tl["function"], "name")
				name, schemaKey = str(t, fn["name"]), "parameters"
				schema = fn[schemaKey]
				str(t, fn["description"])
			case "mcp":
				name, schemaKey = str(t, tl["name"]), "inputSchema"
				schema = tl[schemaKey]
			}
			if !apiName.MatchString(name) {
				t.Errorf("%s: name %q breaks the API's rule", format, name)
			}
			s, ok := schema.(map[string]any)
			if !ok || s["type"] != "object" {
				t.Errorf("%s %s: %s %v is not an object schema", format, name, schemaKey, schema)
			}
			names = append(names, name)
		}
	case "gemini":
		doc := object(t, "gemini", v, "functionDeclarations")
		decls, ok := doc["functionDeclarations"].([]any)
		if !ok {
			t.Fatalf("gemini: functionDeclarations is %T", doc["functionDeclarations"])
		}
		for _, d := range decls {
			decl := object(t, "decl", d, "name")
			name := str(t, decl["name"])
			if !geminiName.MatchString(name) {
				t.Errorf("gemini: name %q breaks the API's rule", name)
			}
			str(t, decl["description"])
			checkGeminiSchema(t, name, decl["parameters"], true)
			names = append(names, name)
		}
	}
	return names
}

// object checks that v is an object holding the required keys and only
// keys the format documents.
func object(t *testing.T, kind string, v any, required ...string) map[string]any {
	t.Helper()
	m, ok := v.(map[string]any)
	if !ok {
		t.Fatalf("%s: want an object, got %T", kind, v)
	}
	for _, k := range required {
		if _, ok := m[k]; !ok {
			t.Errorf("%s: missing %q in %v", kind, k, keys(m))
		}
	}
	for k := range m {
		if !slices.Contains(formatKeys[kind], k) {
			t.Errorf("%s: field %q is not in the API's documented fields %v", kind, k, formatKeys[kind])
		}
	}
	return m
}

func str(t *testing.T, v any) string {
	t.Helper()
	s, ok := v.(string)
	if !ok || s == "" {
		t.Errorf("want a non-empty string, got %v", v)
	}
	return s
}

func keys(m map[string]any) []string {
	var ks []string
	for k := range m {
		ks = append(ks, k)
	}
	sort.Strings(ks)
	return ks
}

// checkGeminiSchema walks a Gemini Schema: only its fields, one type of
// its set, properties in propertyOrdering, required among the properties.
func checkGeminiSchema(t *testing.T, where string, v any, top bool) {
	t.Helper()
	s, ok := v.(map[string]any)
	if !ok {
		t.Errorf("%s: schema %v is not an object", where, v)
		return
	}
	for k := range s {
		if !slices.Contains(geminiKeys, k) {
			t.Errorf("%s: %q is not a field of the Gemini Schema", where, k)
		}
	}
	typ, _ := s["type"].(string)
	if !slices.Contains(geminiTypes, typ) {
		t.Errorf("%s: type %v is not one Gemini type", where, s["type"])
	}
	if top && typ != "object" {
		t.Errorf("%s: parameters of type %s, want object", where, typ)
	}
	if props, ok := s["properties"].(map[string]any); ok {
		var order []string
		for _, o := range asSlice(s["propertyOrdering"]) {
			order = append(order, o.(string))
		}
		if len(props) > 1 {
			sorted := slices.Clone(order)
			sort.Strings(sorted)
			if !slices.Equal(sorted, keys(props)) {
				t.Errorf("%s: propertyOrdering %v does not list the properties %v", where, order, keys(props))
			}
		}
		for name, p := range props {
			checkGeminiSchema(t, where+"."+name, p, false)
		}
		for _, r := range asSlice(s["required"]) {
			if _, ok := props[r.(string)]; !ok {
				t.Errorf("%s: required %v is not a property", where, r)
			}
		}
	}
	if items, ok := s["items"]; ok {
		checkGeminiSchema(t, where+"[]", items, false)
	}
	if e, ok := s["enum"]; ok {
		for _, x := range asSlice(e) {
			if _, ok := x.(string); !ok {
				t.Errorf("%s: enum value %v is not a string", where, x)
			}
		}
	}
}

func asSlice(v any) []any {
	s, _ := v.([]any)
	return s
}

func TestToolsFormatFlattensNullTypes(t *testing.T) {
	// Optional parameters have plain types in the core schemas; a null
	// type never reaches the Gemini format.
	out, _, code := runCLI(t, "", "tools", "--root", workspace(t), "--format", "gemini")
	if code != exitOK || strings.Contains(out, `"null"`) || strings.Contains(out, "additionalProperties") {
		t.Errorf("gemini format keeps JSON Schema only keywords:\n%s", out)
	}
}

func TestToolsFormatUsageErrors(t *testing.T) {
	root := workspace(t)
	for _, args := range [][]string{
		{"tools", "--root", root, "--format", "cohere"},
		{"tools", "--root", root, "--format", "openai", "--json"},
	} {
		if _, errOut, code := runCLI(t, "", args...); code != exitUsage || !strings.Contains(errOut, "anthropic, openai, gemini, mcp") {
			t.Errorf("%v: code %d, %q", args, code, errOut)
		}
	}
}
