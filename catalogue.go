package hands

import (
	"encoding/json"

	"github.com/hands-dev/hands/tool"
)

// CatalogueEntry is one tool in the JSON catalogue of `hands tools --json`.
type CatalogueEntry struct {
	Name           string          `json:"name"`
	Title          string          `json:"title,omitempty"`
	Description    string          `json:"description"`
	InputSchema    json.RawMessage `json:"input_schema"`
	OutputSchema   json.RawMessage `json:"output_schema,omitempty"`
	ReadOnly       bool            `json:"read_only"`
	Destructive    bool            `json:"destructive"`
	Idempotent     bool            `json:"idempotent"`
	OpenWorld      bool            `json:"open_world"`
	MaxResultChars int             `json:"max_result_chars,omitempty"`
}

// Catalogue renders tool definitions as indented JSON.
func Catalogue(infos []tool.Info) ([]byte, error) {
	entries := make([]CatalogueEntry, 0, len(infos))
	for _, t := range infos {
		entries = append(entries, CatalogueEntry{
			Name: t.Name, Title: t.Title, Description: t.Description,
			InputSchema: t.InputSchema, OutputSchema: t.OutputSchema,
			ReadOnly: t.ReadOnly, Destructive: t.Destructive, Idempotent: t.Idempotent,
			OpenWorld: t.OpenWorld, MaxResultChars: t.MaxResultChars,
		})
	}
	return json.MarshalIndent(entries, "", "  ")
}
