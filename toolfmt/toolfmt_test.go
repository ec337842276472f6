package toolfmt_test

import (
	"encoding/json"
	"regexp"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/hands-dev/hands"
	"github.com/hands-dev/hands/tool"
	"github.com/hands-dev/hands/toolfmt"
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
	geminiTypes = []string{"STRING", "NUMBER", "INTEGER", "BOOLEAN", "ARRAY", "OBJECT"}
	// geminiKeys are the fields of the Gemini API's Schema.
	geminiKeys = []string{
		"type", "format", "title", "description", "nullable", "enum", "default",
		"items", "minItems", "maxItems", "properties", "required", "propertyOrdering",
		"minProperties", "maxProperties", "minimum", "maximum", "minLength", "maxLength", "pattern",
	}
)

// profileTools returns the tools of every profile, by profile.
func profileTools(t *testing.T) map[string][]tool.Info {
	t.Helper()
	root := t.TempDir()
	out := map[string][]tool.Info{}
	for _, profile := range hands.Profiles() {
		rt, err := hands.New(hands.Options{Roots: []string{root}, Profile: profile})
		if err != nil {
			t.Fatal(err)
		}
		out[profile] = rt.Tools()
		rt.Close()
	}
	return out
}

// marshal formats infos and reads the JSON back as a client would.
func marshal(t *testing.T, format string, infos []tool.Info) any {
	t.Helper()
	v, err := toolfmt.Format(format, infos)
	if err != nil {
		t.Fatal(err)
	}
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	var back any
	if err := json.Unmarshal(b, &back); err != nil {
		t.Fatalf("not JSON: %v\n%s", err, b)
	}
	return back
}

// TestFormatShapes checks every format of every profile's tools against
// each API's documented fields.
func TestFormatShapes(t *testing.T) {
	for profile, infos := range profileTools(t) {
		var names []string
		for _, i := range infos {
			names = append(names, i.Name)
		}
		for _, format := range toolfmt.Formats() {
			t.Run(profile+"/"+format, func(t *testing.T) {
				got := checkShape(t, format, marshal(t, format, infos))
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
			if params, ok := decl["parameters"]; ok {
				// A function without parameters declares none.
				checkGeminiSchema(t, name, params, true)
			}
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
	for k, v := range s {
		if !slices.Contains(geminiKeys, k) {
			t.Errorf("%s: %q is not a field of the Gemini Schema", where, k)
		}
		switch k {
		case "minItems", "maxItems", "minLength", "maxLength", "minProperties", "maxProperties":
			if _, ok := v.(string); !ok {
				t.Errorf("%s: %s is %v; an int64 field is a string in the Gemini Schema's JSON", where, k, v)
			}
		}
	}
	typ, _ := s["type"].(string)
	if !slices.Contains(geminiTypes, typ) {
		t.Errorf("%s: type %v is not one Gemini type", where, s["type"])
	}
	if top && typ != "OBJECT" {
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

// TestGeminiFlattensNullTypes: Gemini's Schema has no null type and no
// additionalProperties; a ["null", T] type becomes T with nullable set; types
// are the API's enum values.
func TestGeminiFlattensNullTypes(t *testing.T) {
	g, err := toolfmt.Gemini([]tool.Info{{Name: "edit", Description: "edits", InputSchema: json.RawMessage(
		`{"type":"object","additionalProperties":false,"properties":{"path":{"type":"string"},"edits":{"type":["null","array"],"items":{"type":"object","additionalProperties":false,"properties":{"old":{"type":"string"}}}}},"required":["path"]}`)}})
	if err != nil {
		t.Fatal(err)
	}
	b, err := json.Marshal(g)
	if err != nil {
		t.Fatal(err)
	}
	want := `{"functionDeclarations":[{"name":"edit","description":"edits","parameters":{"properties":{"edits":{"items":{"properties":{"old":{"type":"STRING"}},"type":"OBJECT"},"nullable":true,"type":"ARRAY"},"path":{"type":"STRING"}},"propertyOrdering":["path","edits"],"required":["path"],"type":"OBJECT"}}]}`
	if string(b) != want {
		t.Errorf("got  %s\nwant %s", b, want)
	}
	// And no profile's real schemas keep a keyword Gemini lacks.
	for profile, infos := range profileTools(t) {
		b, err := json.Marshal(marshal(t, "gemini", infos))
		if err != nil {
			t.Fatal(err)
		}
		if out := string(b); strings.Contains(out, `"null"`) || strings.Contains(out, "additionalProperties") {
			t.Errorf("%s: gemini format keeps JSON Schema only keywords:\n%s", profile, out)
		}
	}
}

// TestGeminiWithoutParameters checks that a function without parameters
// declares none, and that a schema that is not JSON is an error naming the
// tool.
func TestGeminiWithoutParameters(t *testing.T) {
	g, err := toolfmt.Gemini([]tool.Info{{Name: "noop", Description: "does nothing", InputSchema: json.RawMessage(`{"type":"object","properties":{}}`)}})
	if err != nil {
		t.Fatal(err)
	}
	if len(g.FunctionDeclarations) != 1 || g.FunctionDeclarations[0].Parameters != nil {
		t.Errorf("got %+v, want one declaration without parameters", g)
	}
	_, err = toolfmt.Gemini([]tool.Info{{Name: "broken", InputSchema: json.RawMessage(`{`)}})
	if err == nil || !strings.Contains(err.Error(), "broken: input schema") {
		t.Errorf("a schema that is not JSON: err %v", err)
	}
}

func TestFormatUnknown(t *testing.T) {
	_, err := toolfmt.Format("cohere", nil)
	if err == nil || !strings.Contains(err.Error(), `"cohere"`) || !strings.Contains(err.Error(), "anthropic, openai, gemini, mcp") {
		t.Errorf("unknown format: %v", err)
	}
}

// TestMCPOutputSchemaAdmitsErrors checks that a tool's MCP output schema
// also admits a failure's structured content, and that a tool without an
// output schema declares none.
func TestMCPOutputSchemaAdmitsErrors(t *testing.T) {
	with := toolfmt.MCPDefinition(tool.Info{Name: "a", InputSchema: json.RawMessage(`{"type":"object"}`), OutputSchema: json.RawMessage(`{"type":"object"}`), Destructive: true})
	var s struct {
		AnyOf []struct {
			Required []string `json:"required"`
		} `json:"anyOf"`
	}
	if err := json.Unmarshal(with.OutputSchema, &s); err != nil || len(s.AnyOf) != 2 || !slices.Equal(s.AnyOf[1].Required, []string{"code", "message"}) {
		t.Errorf("output schema %s (err %v): want anyOf the tool's and the error object", with.OutputSchema, err)
	}
	if a := with.Annotations; a == nil || a.DestructiveHint == nil || !*a.DestructiveHint || a.OpenWorldHint == nil || *a.OpenWorldHint {
		t.Errorf("annotations %+v do not follow the metadata", with.Annotations)
	}
	without := toolfmt.MCPDefinition(tool.Info{Name: "b", InputSchema: json.RawMessage(`{"type":"object"}`)})
	b, err := json.Marshal(without)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(b), "outputSchema") {
		t.Errorf("a tool without an output schema declares one: %s", b)
	}
}
