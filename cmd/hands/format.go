package main

import (
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/hands-dev/hands/mcpserver"
	"github.com/hands-dev/hands/tool"
)

// This file is `hands tools --format`: the profile's tool definitions
// shaped for a model API's tool-calling request, so that a library user can
// hand them to a model as they are.

// toolFormats are the shapes --format accepts.
var toolFormats = []string{"anthropic", "openai", "gemini", "mcp"}

// anthropicTool is one entry of the Messages API's "tools".
type anthropicTool struct {
	Name        string          `json:"name"`
	Description string          `json:"description"`
	InputSchema json.RawMessage `json:"input_schema"`
}

// openAITool is one entry of the Chat Completions API's "tools".
type openAITool struct {
	Type     string         `json:"type"`
	Function openAIFunction `json:"function"`
}

type openAIFunction struct {
	Name        string          `json:"name"`
	Description string          `json:"description"`
	Parameters  json.RawMessage `json:"parameters"`
}

// geminiTool is one entry of the Gemini API's "tools": a Tool holding
// function declarations.
type geminiTool struct {
	FunctionDeclarations []geminiFunction `json:"functionDeclarations"`
}

type geminiFunction struct {
	Name        string         `json:"name"`
	Description string         `json:"description"`
	Parameters  map[string]any `json:"parameters,omitempty"`
}

// formatTools returns the definitions in the named API's shape.
func formatTools(format string, infos []tool.Info) (any, error) {
	switch format {
	case "anthropic":
		out := make([]anthropicTool, 0, len(infos))
		for _, t := range infos {
			out = append(out, anthropicTool{Name: t.Name, Description: t.Description, InputSchema: t.InputSchema})
		}
		return out, nil
	case "openai":
		out := make([]openAITool, 0, len(infos))
		for _, t := range infos {
			out = append(out, openAITool{Type: "function", Function: openAIFunction{Name: t.Name, Description: t.Description, Parameters: t.InputSchema}})
		}
		return out, nil
	case "gemini":
		g := geminiTool{FunctionDeclarations: []geminiFunction{}}
		for _, t := range infos {
			var s any
			if err := json.Unmarshal(t.InputSchema, &s); err != nil {
				return nil, fmt.Errorf("%s: input schema: %w", t.Name, err)
			}
			params, _ := geminiSchema(s, orderOf(t.InputSchema)).(map[string]any)
			if props, _ := params["properties"].(map[string]any); len(props) == 0 {
				// A function without parameters declares none.
				params = nil
			}
			g.FunctionDeclarations = append(g.FunctionDeclarations, geminiFunction{Name: t.Name, Description: t.Description, Parameters: params})
		}
		return g, nil
	case "mcp":
		out := make([]any, 0, len(infos))
		for _, t := range infos {
			out = append(out, mcpserver.Definition(t))
		}
		return out, nil
	}
	return nil, fmt.Errorf("unknown format %q; use one of %s", format, strings.Join(toolFormats, ", "))
}

// printFormat writes the definitions in the named API's shape as indented
// JSON.
func printFormat(w io.Writer, format string, infos []tool.Info) error {
	v, err := formatTools(format, infos)
	if err != nil {
		return err
	}
	b, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return err
	}
	_, err = fmt.Fprintf(w, "%s\n", b)
	return err
}

// geminiKeys are the fields of the Gemini API's Schema (a subset of OpenAPI
// 3.0's Schema object) that a JSON Schema from a tool may carry.
var geminiKeys = []string{
	"type", "format", "title", "description", "nullable", "enum", "default",
	"items", "minItems", "maxItems", "properties", "required", "propertyOrdering",
	"minProperties", "maxProperties", "minimum", "maximum", "minLength", "maxLength", "pattern",
}

// geminiSchema turns a JSON Schema into the Gemini API's Schema: no
// additionalProperties or other JSON Schema keywords it lacks, a nullable
// flag instead of a ["null", T] type, and propertyOrdering to keep the
// parameters in their order. order gives the property order of each object
// by its path.
func geminiSchema(s any, order map[string][]string) any {
	return geminiAt(s, "", order)
}

func geminiAt(s any, path string, order map[string][]string) any {
	m, ok := s.(map[string]any)
	if !ok {
		return s
	}
	out := map[string]any{}
	for k, v := range m {
		if !slices.Contains(geminiKeys, k) {
			continue
		}
		switch k {
		case "type":
			if types, ok := v.([]any); ok {
				var rest []any
				for _, t := range types {
					if t == "null" {
						out["nullable"] = true
					} else {
						rest = append(rest, t)
					}
				}
				if len(rest) > 0 {
					v = rest[0]
				}
			}
			out[k] = v
		case "properties":
			props := map[string]any{}
			if pm, ok := v.(map[string]any); ok {
				for name, p := range pm {
					props[name] = geminiAt(p, path+"/"+name, order)
				}
			}
			out[k] = props
			if names := order[path]; len(names) > 1 {
				out["propertyOrdering"] = names
			}
		case "items":
			out[k] = geminiAt(v, path+"[]", order)
		default:
			out[k] = v
		}
	}
	return out
}

// orderOf returns the property order of every object of a JSON Schema, by
// path: "" for the top, "/name" for a property, "[]" for items.
func orderOf(schema json.RawMessage) map[string][]string {
	order := map[string][]string{}
	var walk func(raw json.RawMessage, path string)
	walk = func(raw json.RawMessage, path string) {
		var obj struct {
			Properties json.RawMessage `json:"properties"`
			Items      json.RawMessage `json:"items"`
		}
		if json.Unmarshal(raw, &obj) != nil {
			return
		}
		if len(obj.Properties) > 0 {
			dec := json.NewDecoder(strings.NewReader(string(obj.Properties)))
			if t, err := dec.Token(); err == nil && t == json.Delim('{') {
				for dec.More() {
					t, err := dec.Token()
					if err != nil {
						break
					}
					name, _ := t.(string)
					var v json.RawMessage
					if dec.Decode(&v) != nil {
						break
					}
					order[path] = append(order[path], name)
					walk(v, path+"/"+name)
				}
			}
		}
		if len(obj.Items) > 0 {
			walk(obj.Items, path+"[]")
		}
	}
	walk(schema, "")
	return order
}
