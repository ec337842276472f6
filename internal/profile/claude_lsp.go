package profile

import (
	"fmt"
	"strings"
	"sync"

	"github.com/hands-dev/hands/internal/tools"
	"github.com/hands-dev/hands/tool"
)

// claudeLSP is Claude Code 2.1.7's LSP tool: its schema and description
// (read from its cli.js, where the tool is enabled by a plugin's
// lspServers), and its result texts (claudeLSPText).
var claudeLSP = sync.OnceValue(func() Entry {
	return Entry{Core: "lsp", Name: "LSP", Description: desc("claude/LSP.md"), Params: []Param{
		{Name: "operation", Description: "The LSP operation to perform"},
		{Name: "filePath", Core: "path", Description: "The absolute or relative path to the file"},
		{Name: "line", Description: "The line number (1-based, as shown in editors)", Schema: positiveInt},
		{Name: "character", Description: "The character offset (1-based, as shown in editors)", Schema: positiveInt},
	}}
})

// positiveInt is zod's int().positive() as Claude Code sends it.
const positiveInt = `{"exclusiveMinimum":0,"maximum":9007199254740991}`

// claudeLSPError renders the lsp tool's errors as Claude Code does: a
// missing file fails its validation; a file type without a server and a
// failed request are plain results.
func claudeLSPError(r *Rendering, e *tool.Error) bool {
	if r.Entry.Core != "lsp" {
		return false
	}
	switch {
	case e.Code == tool.PathNotFound:
		r.Text("<tool_use_error>File does not exist: " + r.detail("given") + "</tool_use_error>")
	case e.Code == tool.InvalidInput && r.detail("kind") == "directory":
		r.Text("<tool_use_error>Path is not a file: " + r.detail("given") + "</tool_use_error>")
	case e.Code == tool.LSPServerUnavailable && r.detail("reason") == "no_server":
		r.Text("No LSP server available for file type: " + r.detail("ext"))
	case e.Code == tool.LSPServerError:
		// Claude Code's words around the server's own (measured).
		r.Text(fmt.Sprintf("Error performing %s: LSP request '%s' failed for server '%s': %s", r.detail("operation"), r.detail("method"), r.detail("server"), r.detail("server_message")))
	case e.Code == tool.LSPServerUnavailable:
		r.Text(fmt.Sprintf("Error performing %s: %s", r.detail("operation"), e.Message))
	default:
		return false
	}
	return true
}

// claudeLSPText is Claude Code 2.1.7's text of an LSP result (its
// formatters in cli.js, word for word).
func claudeLSPText(o *tools.LSPOutput) string {
	loc := func(file string, line, col int) string { return fmt.Sprintf("%s:%d:%d", file, line, col) }
	switch o.Operation {
	case "goToDefinition", "goToImplementation":
		switch len(o.Locations) {
		case 0:
			return "No definition found. This may occur if the cursor is not on a symbol, or if the definition is in an external library not indexed by the LSP server."
		case 1:
			l := o.Locations[0]
			return "Defined in " + loc(l.File, l.Line, l.Column)
		}
		lines := []string{fmt.Sprintf("Found %d definitions:", len(o.Locations))}
		for _, l := range o.Locations {
			lines = append(lines, "  "+loc(l.File, l.Line, l.Column))
		}
		return strings.Join(lines, "\n")
	case "findReferences":
		switch len(o.Locations) {
		case 0:
			return "No references found. This may occur if the symbol has no usages, or if the LSP server has not fully indexed the workspace."
		case 1:
			l := o.Locations[0]
			return "Found 1 reference:\n  " + loc(l.File, l.Line, l.Column)
		}
		lines := []string{fmt.Sprintf("Found %d references across %d files:", len(o.Locations), o.Files)}
		last := ""
		for _, l := range o.Locations {
			if l.File != last {
				lines = append(lines, "\n"+l.File+":")
				last = l.File
			}
			lines = append(lines, fmt.Sprintf("  Line %d:%d", l.Line, l.Column))
		}
		return strings.Join(lines, "\n")
	case "hover":
		if o.Hover == nil {
			return "No hover information available. This may occur if the cursor is not on a symbol, or if the LSP server has not fully indexed the file."
		}
		if o.Hover.Line > 0 {
			return fmt.Sprintf("Hover info at %d:%d:\n\n%s", o.Hover.Line, o.Hover.Column, o.Hover.Markdown)
		}
		return o.Hover.Markdown
	case "documentSymbol":
		if len(o.Symbols) == 0 {
			return "No symbols found in document. This may occur if the file is empty, not supported by the LSP server, or if the server has not fully indexed the file."
		}
		lines := []string{"Document symbols:"}
		for _, s := range o.Symbols {
			t := fmt.Sprintf("%s%s (%s)", strings.Repeat("  ", s.Depth), s.Name, s.Kind)
			if s.Detail != "" {
				t += " " + s.Detail
			}
			lines = append(lines, fmt.Sprintf("%s - Line %d", t, s.Line))
		}
		return strings.Join(lines, "\n")
	case "workspaceSymbol":
		if len(o.Symbols) == 0 {
			return "No symbols found in workspace. This may occur if the workspace is empty, or if the LSP server has not finished indexing the project."
		}
		s := ""
		if len(o.Symbols) != 1 {
			s = "s"
		}
		lines := []string{fmt.Sprintf("Found %d symbol%s in workspace:", len(o.Symbols), s)}
		last := ""
		for _, sym := range o.Symbols {
			if sym.File != last {
				lines = append(lines, "\n"+sym.File+":")
				last = sym.File
			}
			t := fmt.Sprintf("  %s (%s) - Line %d", sym.Name, sym.Kind, sym.Line)
			if sym.Container != "" {
				t += " in " + sym.Container
			}
			lines = append(lines, t)
		}
		return strings.Join(lines, "\n")
	case "prepareCallHierarchy":
		item := func(c tools.LSPCall) string {
			t := fmt.Sprintf("%s (%s) - %s:%d", c.Name, c.Kind, c.File, c.Line)
			if c.Detail != "" {
				t += " [" + c.Detail + "]"
			}
			return t
		}
		switch len(o.Calls) {
		case 0:
			return "No call hierarchy item found at this position"
		case 1:
			return "Call hierarchy item: " + item(o.Calls[0])
		}
		lines := []string{fmt.Sprintf("Found %d call hierarchy items:", len(o.Calls))}
		for _, c := range o.Calls {
			lines = append(lines, "  "+item(c))
		}
		return strings.Join(lines, "\n")
	}
	// incomingCalls, outgoingCalls.
	in := o.Operation == "incomingCalls"
	if o.Item == nil {
		return "No call hierarchy item found at this position"
	}
	if len(o.Calls) == 0 {
		if in {
			return "No incoming calls found (nothing calls this function)"
		}
		return "No outgoing calls found (this function calls nothing)"
	}
	noun, verb := "outgoing call", "called from"
	if in {
		noun, verb = "incoming call", "calls at"
	}
	s := ""
	if len(o.Calls) != 1 {
		s = "s"
	}
	lines := []string{fmt.Sprintf("Found %d %s%s:", len(o.Calls), noun, s)}
	last := ""
	for _, c := range o.Calls {
		if c.File != last {
			lines = append(lines, "\n"+c.File+":")
			last = c.File
		}
		t := fmt.Sprintf("  %s (%s) - Line %d", c.Name, c.Kind, c.Line)
		if len(c.At) > 0 {
			var at []string
			for _, p := range c.At {
				at = append(at, fmt.Sprintf("%d:%d", p.Line, p.Column))
			}
			t += fmt.Sprintf(" [%s: %s]", verb, strings.Join(at, ", "))
		}
		lines = append(lines, t)
	}
	return strings.Join(lines, "\n")
}
