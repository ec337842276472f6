// Package toolfmt shapes tool definitions for a model API's tool-calling
// request, so that a Go agent can hand a Runtime's tools to a model as they
// are:
//
//	tools := toolfmt.Anthropic(rt.Tools()) // the Messages API's "tools"
//
// Each shape is a plain struct that marshals to the JSON the API documents:
// Anthropic's Messages API, OpenAI's Chat Completions, the Gemini API's
// function declarations, and MCP's tools/list entries. The package depends
// on no SDK: the structs are its own, so an agent can use any client (or
// none) and copy the fields across. It promises the API's shape, not that a
// given model accepts every schema keyword; Gemini, whose Schema is a subset
// of OpenAPI 3.0, gets the schema rewritten to fit (see Gemini).
package toolfmt

import (
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/hands-dev/hands/tool"
)

// Formats returns the names Format accepts.
func Formats() []string { return []string{"anthropic", "openai", "gemini", "mcp"} }

// Format returns the definitions in the named API's shape: "anthropic"
// gives []AnthropicTool, "openai" []OpenAITool, "gemini" GeminiTool and
// "mcp" []MCPTool. An unknown name is an error listing the known ones.
func Format(name string, infos []tool.Info) (any, error) {
	switch name {
	case "anthropic":
		return Anthropic(infos), nil
	case "openai":
		return OpenAI(infos), nil
	case "gemini":
		return Gemini(infos)
	case "mcp":
		return MCP(infos), nil
	}
	return nil, fmt.Errorf("unknown format %q; use one of %s", name, strings.Join(Formats(), ", "))
}

// AnthropicTool is one entry of the Anthropic Messages API's "tools".
type AnthropicTool struct {
	Name        string          `json:"name"`
	Description string          `json:"description"`
	InputSchema json.RawMessage `json:"input_schema"`
}

// Anthropic returns the definitions as the Messages API's "tools".
func Anthropic(infos []tool.Info) []AnthropicTool {
	out := make([]AnthropicTool, 0, len(infos))
	for _, t := range infos {
		out = append(out, AnthropicTool{Name: t.Name, Description: t.Description, InputSchema: t.InputSchema})
	}
	return out
}

// OpenAITool is one entry of the OpenAI Chat Completions API's "tools".
type OpenAITool struct {
	// Type is always "function".
	Type     string         `json:"type"`
	Function OpenAIFunction `json:"function"`
}

// OpenAIFunction is the function an OpenAITool declares.
type OpenAIFunction struct {
	Name        string          `json:"name"`
	Description string          `json:"description"`
	Parameters  json.RawMessage `json:"parameters"`
}

// OpenAI returns the definitions as the Chat Completions API's "tools".
func OpenAI(infos []tool.Info) []OpenAITool {
	out := make([]OpenAITool, 0, len(infos))
	for _, t := range infos {
		out = append(out, OpenAITool{Type: "function", Function: OpenAIFunction{Name: t.Name, Description: t.Description, Parameters: t.InputSchema}})
	}
	return out
}

// GeminiTool is one entry of the Gemini API's "tools": a Tool holding
// function declarations.
type GeminiTool struct {
	FunctionDeclarations []GeminiFunction `json:"functionDeclarations"`
}

// GeminiFunction is one function declaration of a GeminiTool.
type GeminiFunction struct {
	Name        string `json:"name"`
	Description string `json:"description"`
	// Parameters is a Gemini Schema of type object, or nil for a function
	// without parameters.
	Parameters map[string]any `json:"parameters,omitempty"`
}

// Gemini returns the definitions as one Gemini API Tool. The input schemas
// become Gemini Schemas: JSON Schema keywords Gemini lacks (such as
// additionalProperties) are dropped, a ["null", T] type becomes T with
// nullable set, types are the API's Type enum values (OBJECT, STRING, …, as
// the official SDKs' type definitions require), the int64 bounds (minItems,
// maxLength, …) are strings as in proto3 JSON, and propertyOrdering keeps
// the parameters in their order.
// It fails only on an input schema that is not JSON.
func Gemini(infos []tool.Info) (GeminiTool, error) {
	g := GeminiTool{FunctionDeclarations: []GeminiFunction{}}
	for _, t := range infos {
		var s any
		if err := json.Unmarshal(t.InputSchema, &s); err != nil {
			return GeminiTool{}, fmt.Errorf("%s: input schema: %w", t.Name, err)
		}
		params, _ := geminiAt(s, "", orderOf(t.InputSchema)).(map[string]any)
		if props, _ := params["properties"].(map[string]any); len(props) == 0 {
			// A function without parameters declares none.
			params = nil
		}
		g.FunctionDeclarations = append(g.FunctionDeclarations, GeminiFunction{Name: t.Name, Description: t.Description, Parameters: params})
	}
	return g, nil
}

// geminiKeys are the fields of the Gemini API's Schema (a subset of
// OpenAPI 3.0's Schema object) that a JSON Schema from a tool may carry.
var geminiKeys = []string{
	"type", "format", "title", "description", "nullable", "enum", "default",
	"items", "minItems", "maxItems", "properties", "required", "propertyOrdering",
	"minProperties", "maxProperties", "minimum", "maximum", "minLength", "maxLength", "pattern",
}

// geminiAt turns the JSON Schema s at path into a Gemini Schema; order
// gives the property order of each object by its path.
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
			if t, ok := v.(string); ok {
				// The API's Type enum: STRING, INTEGER, OBJECT, …
				v = strings.ToUpper(t)
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
		case "minItems", "maxItems", "minLength", "maxLength", "minProperties", "maxProperties":
			// int64 fields: proto3 JSON writes them as strings, and
			// the SDKs' Schema types say string.
			if n, ok := v.(float64); ok {
				v = strconv.FormatInt(int64(n), 10)
			}
			out[k] = v
		default:
			out[k] = v
		}
	}
	if _, typed := out["type"]; !typed && path != "" {
		// A value of any JSON type (share_data's data): Gemini's Schema
		// needs a type, and a string can carry any JSON text.
		out["type"] = "STRING"
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

// MCPTool is one entry of MCP's tools/list result. Its fields are in the
// order the official MCP Go SDK writes them, so a definition marshals to
// the same bytes a server built on that SDK sends.
type MCPTool struct {
	Annotations  *MCPAnnotations `json:"annotations,omitempty"`
	Description  string          `json:"description,omitempty"`
	InputSchema  json.RawMessage `json:"inputSchema"`
	Name         string          `json:"name"`
	OutputSchema json.RawMessage `json:"outputSchema,omitempty"`
	Title        string          `json:"title,omitempty"`
}

// MCPAnnotations are an MCPTool's hints, derived from the tool's metadata.
type MCPAnnotations struct {
	DestructiveHint *bool  `json:"destructiveHint,omitempty"`
	IdempotentHint  bool   `json:"idempotentHint"`
	OpenWorldHint   *bool  `json:"openWorldHint,omitempty"`
	ReadOnlyHint    bool   `json:"readOnlyHint"`
	Title           string `json:"title,omitempty"`
}

// MCP returns the definitions as MCP's tools/list entries.
func MCP(infos []tool.Info) []MCPTool {
	out := make([]MCPTool, 0, len(infos))
	for _, t := range infos {
		out = append(out, MCPDefinition(t))
	}
	return out
}

// MCPDefinition returns the MCP definition of one tool: annotations derived
// from its metadata and, when the tool has an output schema, an output
// schema that also admits the structured content of a failed call (its
// code, message and details), since clients validate structuredContent on
// failures too.
func MCPDefinition(info tool.Info) MCPTool {
	destructive := info.Destructive
	openWorld := info.OpenWorld
	return MCPTool{
		Name:         info.Name,
		Title:        info.Title,
		Description:  info.Description,
		InputSchema:  info.InputSchema,
		OutputSchema: outputSchema(info.OutputSchema),
		Annotations: &MCPAnnotations{
			Title:           info.Title,
			ReadOnlyHint:    info.ReadOnly,
			DestructiveHint: &destructive,
			IdempotentHint:  info.Idempotent,
			OpenWorldHint:   &openWorld,
		},
	}
}

// errorSchema is the JSON Schema of the structured content of a failed
// call: its code, its message and optional details.
const errorSchema = `{"type":"object","required":["code","message"],"properties":{"code":{"type":"string","description":"the error code, e.g. PATH_NOT_FOUND"},"message":{"type":"string"},"details":{"type":"object"}}}`

// outputSchema is the tool's output schema or the error object.
func outputSchema(out json.RawMessage) json.RawMessage {
	if len(out) == 0 {
		return nil
	}
	return json.RawMessage(`{"type":"object","anyOf":[` + string(out) + `,` + errorSchema + `]}`)
}
