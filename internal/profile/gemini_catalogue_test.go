package profile_test

import (
	"encoding/json"
	"os"
	"reflect"
	"strings"
	"testing"

	"github.com/hands-dev/hands/internal/profile"
	"github.com/hands-dev/hands/internal/tools"
	"github.com/hands-dev/hands/tool"
)

// TestGeminiCatalogueIsGeminiCLIs checks the gemini profile's tools against
// the declarations Gemini CLI core 0.1.13 sends the model (schemas.json of
// the oracle, copied into testdata): the same tools, descriptions,
// parameters in the same order with the same types, descriptions and
// bounds, the same required list, and no keyword 0.1.13 lacks (such as
// additionalProperties: 0.1.13 ignores unknown parameters).
func TestGeminiCatalogueIsGeminiCLIs(t *testing.T) {
	data, err := os.ReadFile("testdata/gemini_0.1.13_schemas.json")
	if err != nil {
		t.Fatal(err)
	}
	var ref struct {
		Version string `json:"version"`
		Tools   map[string]struct {
			Declaration struct {
				Description string          `json:"description"`
				Parameters  json.RawMessage `json:"parameters"`
			} `json:"declaration"`
		} `json:"tools"`
	}
	if err := json.Unmarshal(data, &ref); err != nil {
		t.Fatal(err)
	}
	if ref.Version != "0.1.13" {
		t.Fatalf("schemas.json is of %s, want 0.1.13", ref.Version)
	}
	p, err := profile.Get("gemini", tools.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	exposed := p.Apply(tools.Builtins(tools.Limits{}))
	if len(exposed) != len(p.Tools) {
		t.Fatalf("%d tools exposed, want %d", len(exposed), len(p.Tools))
	}
	for _, tl := range exposed {
		info := tl.Info()
		decl, ok := ref.Tools[info.Name]
		if !ok {
			t.Errorf("%s is not a Gemini CLI 0.1.13 tool", info.Name)
			continue
		}
		if info.Description != decl.Declaration.Description {
			t.Errorf("%s: description differs from 0.1.13's:\n got %q\nwant %q", info.Name, info.Description, decl.Declaration.Description)
		}
		if got, want := normalise(t, info.InputSchema), normalise(t, decl.Declaration.Parameters); !reflect.DeepEqual(got, want) {
			g, _ := json.MarshalIndent(got, "", "  ")
			w, _ := json.MarshalIndent(want, "", "  ")
			t.Errorf("%s: parameters differ from 0.1.13's:\n got %s\nwant %s", info.Name, g, w)
		}
		if order(t, info.InputSchema) != order(t, decl.Declaration.Parameters) {
			t.Errorf("%s: parameters in order %s, 0.1.13 has %s", info.Name, order(t, info.InputSchema), order(t, decl.Declaration.Parameters))
		}
	}
	var _ tool.Tool = exposed[0]
}

// normalise reads a JSON schema with Gemini's upper-case type names
// (STRING, OBJECT) as lower case.
func normalise(t *testing.T, raw json.RawMessage) any {
	t.Helper()
	var v any
	if err := json.Unmarshal(raw, &v); err != nil {
		t.Fatal(err)
	}
	var walk func(any) any
	walk = func(v any) any {
		switch x := v.(type) {
		case map[string]any:
			for k, e := range x {
				if s, ok := e.(string); ok && k == "type" {
					x[k] = strings.ToLower(s)
					continue
				}
				x[k] = walk(e)
			}
		case []any:
			for i := range x {
				x[i] = walk(x[i])
			}
		}
		return v
	}
	return walk(v)
}

// order lists the names of a schema's properties in their order.
func order(t *testing.T, raw json.RawMessage) string {
	t.Helper()
	var s struct {
		Properties json.RawMessage `json:"properties"`
	}
	if err := json.Unmarshal(raw, &s); err != nil {
		t.Fatal(err)
	}
	dec := json.NewDecoder(strings.NewReader(string(s.Properties)))
	var names []string
	depth := 0
	for {
		tok, err := dec.Token()
		if err != nil {
			break
		}
		switch v := tok.(type) {
		case json.Delim:
			if v == '{' || v == '[' {
				depth++
			} else {
				depth--
			}
		case string:
			if depth == 1 {
				names = append(names, v)
				// Skip the value.
				var skip json.RawMessage
				if err := dec.Decode(&skip); err != nil {
					t.Fatal(err)
				}
			}
		}
	}
	return strings.Join(names, ", ")
}
