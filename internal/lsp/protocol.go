package lsp

import "encoding/json"

// The Language Server Protocol 3.17 types this client sends and reads:
// only these, as no maintained Go module exports the protocol's types
// (see doc.go). Field names and JSON keys are the specification's.

// Position is a zero-based line and a zero-based offset in UTF-16 code
// units, the protocol's default encoding.
type Position struct {
	Line      int `json:"line"`
	Character int `json:"character"`
}

// Range is a span between two positions, end exclusive.
type Range struct {
	Start Position `json:"start"`
	End   Position `json:"end"`
}

// Location is a range in a document.
type Location struct {
	URI   string `json:"uri"`
	Range Range  `json:"range"`
}

// LocationLink is a location with the span that was the origin.
type LocationLink struct {
	TargetURI            string `json:"targetUri"`
	TargetRange          Range  `json:"targetRange"`
	TargetSelectionRange *Range `json:"targetSelectionRange,omitempty"`
}

// locationOrLink decodes either a Location or a LocationLink.
type locationOrLink struct {
	URI                  string `json:"uri"`
	Range                *Range `json:"range"`
	TargetURI            string `json:"targetUri"`
	TargetRange          *Range `json:"targetRange"`
	TargetSelectionRange *Range `json:"targetSelectionRange"`
}

func (l locationOrLink) location() (Location, bool) {
	switch {
	case l.TargetURI != "" && l.TargetSelectionRange != nil:
		return Location{URI: l.TargetURI, Range: *l.TargetSelectionRange}, true
	case l.TargetURI != "" && l.TargetRange != nil:
		return Location{URI: l.TargetURI, Range: *l.TargetRange}, true
	case l.URI != "" && l.Range != nil:
		return Location{URI: l.URI, Range: *l.Range}, true
	}
	return Location{}, false
}

// DecodeLocations reads the answer of definition, implementation or
// references: null, a Location, or an array of Locations or LocationLinks.
// Entries without a URI are dropped.
func DecodeLocations(raw json.RawMessage) ([]Location, error) {
	if isNull(raw) {
		return nil, nil
	}
	var many []locationOrLink
	if len(raw) > 0 && raw[0] == '[' {
		if err := json.Unmarshal(raw, &many); err != nil {
			return nil, err
		}
	} else {
		var one locationOrLink
		if err := json.Unmarshal(raw, &one); err != nil {
			return nil, err
		}
		many = []locationOrLink{one}
	}
	var out []Location
	for _, l := range many {
		if loc, ok := l.location(); ok {
			out = append(out, loc)
		}
	}
	return out, nil
}

func isNull(raw json.RawMessage) bool { return len(raw) == 0 || string(raw) == "null" }

// TextDocumentIdentifier names a document.
type TextDocumentIdentifier struct {
	URI string `json:"uri"`
}

// TextDocumentPositionParams is a document and a position in it.
type TextDocumentPositionParams struct {
	TextDocument TextDocumentIdentifier `json:"textDocument"`
	Position     Position               `json:"position"`
}

// ReferenceParams are textDocument/references's.
type ReferenceParams struct {
	TextDocumentPositionParams
	Context struct {
		IncludeDeclaration bool `json:"includeDeclaration"`
	} `json:"context"`
}

// Hover is textDocument/hover's answer.
type Hover struct {
	Contents json.RawMessage `json:"contents"`
	Range    *Range          `json:"range,omitempty"`
}

// Text returns the hover's contents as markdown: MarkupContent's value, a
// MarkedString (plain or {language, value}, the latter fenced), or an
// array of those joined by blank lines.
func (h *Hover) Text() string {
	return markedText(h.Contents)
}

func markedText(raw json.RawMessage) string {
	if isNull(raw) {
		return ""
	}
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	var arr []json.RawMessage
	if json.Unmarshal(raw, &arr) == nil {
		out := ""
		for i, e := range arr {
			if i > 0 {
				out += "\n\n"
			}
			out += markedText(e)
		}
		return out
	}
	var m struct {
		Kind     string `json:"kind"`
		Language string `json:"language"`
		Value    string `json:"value"`
	}
	if json.Unmarshal(raw, &m) == nil {
		if m.Language != "" {
			return "```" + m.Language + "\n" + m.Value + "\n```"
		}
		return m.Value
	}
	return ""
}

// DocumentSymbol is a symbol of a document, with its children.
type DocumentSymbol struct {
	Name           string           `json:"name"`
	Detail         string           `json:"detail,omitempty"`
	Kind           int              `json:"kind"`
	Range          Range            `json:"range"`
	SelectionRange Range            `json:"selectionRange"`
	Children       []DocumentSymbol `json:"children,omitempty"`
}

// SymbolInformation is a symbol with its location (workspace/symbol, and
// the older answer of textDocument/documentSymbol).
type SymbolInformation struct {
	Name          string `json:"name"`
	Kind          int    `json:"kind"`
	ContainerName string `json:"containerName,omitempty"`
	Location      struct {
		URI   string `json:"uri"`
		Range *Range `json:"range,omitempty"`
	} `json:"location"`
}

// CallHierarchyItem is a function or method in a call hierarchy. Raw keeps
// the item as the server sent it (with its data), to send back.
type CallHierarchyItem struct {
	Name           string `json:"name"`
	Kind           int    `json:"kind"`
	Detail         string `json:"detail,omitempty"`
	URI            string `json:"uri"`
	Range          Range  `json:"range"`
	SelectionRange Range  `json:"selectionRange"`
	Raw            json.RawMessage
}

// UnmarshalJSON keeps the raw item beside the fields.
func (c *CallHierarchyItem) UnmarshalJSON(b []byte) error {
	type plain CallHierarchyItem
	var p plain
	if err := json.Unmarshal(b, &p); err != nil {
		return err
	}
	*c = CallHierarchyItem(p)
	c.Raw = append(json.RawMessage(nil), b...)
	return nil
}

// CallHierarchyIncomingCall is a caller and where in it the calls are.
type CallHierarchyIncomingCall struct {
	From       CallHierarchyItem `json:"from"`
	FromRanges []Range           `json:"fromRanges"`
}

// CallHierarchyOutgoingCall is a callee and where the calls to it are.
type CallHierarchyOutgoingCall struct {
	To         CallHierarchyItem `json:"to"`
	FromRanges []Range           `json:"fromRanges"`
}

// SymbolKindName is the name of an LSP SymbolKind, as Claude Code shows
// it ("Function", "Struct", …; "Unknown" outside the table).
func SymbolKindName(k int) string {
	if k >= 1 && k <= len(symbolKinds) {
		return symbolKinds[k-1]
	}
	return "Unknown"
}

var symbolKinds = [...]string{"File", "Module", "Namespace", "Package", "Class", "Method", "Property", "Field",
	"Constructor", "Enum", "Interface", "Function", "Variable", "Constant", "String", "Number", "Boolean",
	"Array", "Object", "Key", "Null", "EnumMember", "Struct", "Event", "Operator", "TypeParameter"}
