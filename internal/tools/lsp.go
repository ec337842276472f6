package tools

import (
	"bytes"
	"context"
	_ "embed"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/hands-dev/hands/internal/lsp"
	"github.com/hands-dev/hands/internal/sandbox"
	"github.com/hands-dev/hands/tool"
)

//go:embed lsp.md
var lspDescription string

// LSPOperations are the lsp tool's operations, Claude Code's names.
var LSPOperations = []string{"goToDefinition", "findReferences", "hover", "documentSymbol", "workspaceSymbol",
	"goToImplementation", "prepareCallHierarchy", "incomingCalls", "outgoingCalls"}

// LSPInput is a question to a language server about a position in a file.
type LSPInput struct {
	resolved
	Operation string `json:"operation" jsonschema:"what to ask the language server"`
	Path      string `json:"path" jsonschema:"the file: absolute, or relative to the working directory"`
	Line      int    `json:"line" jsonschema:"the line, 1-based as view shows it"`
	Character int    `json:"character" jsonschema:"the character in the line, 1-based"`
}

// LSPOutput is a language server's answer, its paths relative to the
// working directory (absolute outside it) and its positions 1-based.
type LSPOutput struct {
	Operation string `json:"operation"`
	// Path is the file asked about, as given.
	Path   string `json:"path"`
	Server string `json:"server"`
	// Locations answer goToDefinition, findReferences and
	// goToImplementation, sorted by file and position.
	Locations []LSPLocation `json:"locations,omitempty"`
	// Hover answers hover; nil when the server had nothing.
	Hover *LSPHover `json:"hover,omitempty"`
	// Symbols answer documentSymbol (Depth nests them) and
	// workspaceSymbol.
	Symbols []LSPSymbol `json:"symbols,omitempty"`
	// Query is the name workspaceSymbol looked for.
	Query string `json:"query,omitempty"`
	// Calls answer prepareCallHierarchy (the items), incomingCalls (the
	// callers) and outgoingCalls (the callees).
	Calls []LSPCall `json:"calls,omitempty"`
	// Item is the function incomingCalls and outgoingCalls asked about;
	// nil when there is none at the position.
	Item *LSPCall `json:"item,omitempty"`
	// Files counts the files the results are in.
	Files int `json:"files"`

	limit int
}

// LSPLocation is a position in a file, with its line's text when the file
// is inside the roots.
type LSPLocation struct {
	File   string `json:"file"`
	Line   int    `json:"line"`
	Column int    `json:"column"`
	Text   string `json:"text,omitempty"`
}

// LSPHover is the server's markdown about a symbol.
type LSPHover struct {
	Markdown string `json:"markdown"`
	// Line and Column are where the symbol starts; 0 when the server did
	// not say.
	Line   int `json:"line,omitempty"`
	Column int `json:"column,omitempty"`
}

// LSPSymbol is a symbol a file declares or the workspace holds.
type LSPSymbol struct {
	Name      string `json:"name"`
	Kind      string `json:"kind"`
	Detail    string `json:"detail,omitempty"`
	Container string `json:"container,omitempty"`
	File      string `json:"file,omitempty"`
	Line      int    `json:"line"`
	Column    int    `json:"column,omitempty"`
	Depth     int    `json:"depth,omitempty"`
	Text      string `json:"text,omitempty"`
}

// LSPCall is a function or method of a call hierarchy and, for incoming
// and outgoing calls, where the calls are (in the caller's file).
type LSPCall struct {
	Name   string `json:"name"`
	Kind   string `json:"kind"`
	Detail string `json:"detail,omitempty"`
	File   string `json:"file"`
	Line   int    `json:"line"`
	Column int    `json:"column"`
	Text   string `json:"text,omitempty"`
	// At are the calls' positions; CallsFile is the file they are in.
	At        []LSPPos `json:"at,omitempty"`
	CallsFile string   `json:"calls_file,omitempty"`
}

// LSPPos is a 1-based line and column.
type LSPPos struct {
	Line   int `json:"line"`
	Column int `json:"column"`
}

// LSP is the lsp tool: code intelligence from the language servers.
func LSP(lim Limits) tool.Tool {
	return tool.New(tool.Spec[LSPInput]{
		Name:            "lsp",
		Title:           "Ask a language server",
		Description:     lspDescription,
		ReadOnly:        true,
		Idempotent:      true,
		ConcurrencySafe: func(LSPInput) bool { return true },
		MaxResultChars:  lim.GrepChars + 2000,
		Enums:           map[string][]string{"operation": LSPOperations},
		Resolve: func(_ context.Context, env *tool.Env, in LSPInput) (LSPInput, error) {
			err := in.resolve(env, in.Path, false)
			return in, err
		},
		Validate: func(_ context.Context, env *tool.Env, in LSPInput) (LSPInput, error) {
			if !slices.Contains(LSPOperations, in.Operation) {
				return in, toolErr(tool.InvalidInput, "%s %q is not one of %s", param("operation"), in.Operation, strings.Join(LSPOperations, ", "))
			}
			if in.Line < 1 || in.Character < 1 {
				return in, toolErr(tool.InvalidInput, "%s and %s are 1-based (line %d, character %d); give the position as view shows it, the first character of line 1 being 1:1", param("line"), param("character"), in.Line, in.Character)
			}
			if !in.at.Exists {
				return in, toolErr(tool.PathNotFound, "%s does not exist; check the path, or glob for the file name", in.at.Abs).With("path", in.at.Abs).With("given", in.Path)
			}
			if fi, err := stateOf(env).FS.Stat(in.at); err == nil && fi.IsDir() {
				return in, toolErr(tool.InvalidInput, "%s is a directory, not a file; give a source file's path", in.at.Abs).With("path", in.at.Abs).With("kind", "directory").With("given", in.Path)
			}
			return in, nil
		},
	}, runLSP)
}

func runLSP(ctx context.Context, env *tool.Env, in LSPInput) (*LSPOutput, error) {
	st := stateOf(env)
	m := st.LSP
	if m == nil {
		return nil, toolErr(tool.LSPServerUnavailable, "this session has no language servers").With("reason", "no_lsp")
	}
	abs := in.at.Abs
	content, terr := readForLSP(st, in.at)
	if terr != nil {
		return nil, terr
	}
	srv, lang, ext, ok := m.For(abs)
	if !ok {
		return nil, toolErr(tool.LSPServerUnavailable, "no language server is configured for %s files (%s); the servers configured serve %s — add one for %s in lspServers of --config",
			extName(ext), in.Path, strings.Join(lsp.Extensions(m.Table), " "), extName(ext)).With("reason", "no_server").With("ext", ext)
	}
	root := st.FS.Roots()[in.at.Root]
	c, err := m.Client(ctx, srv, root, extName(ext))
	if err != nil {
		var ni *lsp.NotInstalledError
		if errors.As(err, &ni) {
			return nil, toolErr(tool.LSPServerUnavailable, "%s", ni.Error()).With("reason", "not_installed").With("server", srv.Name).With("ext", ext).With("operation", in.Operation)
		}
		return nil, toolErr(tool.LSPServerUnavailable, "%v", err).With("server", srv.Name).With("operation", in.Operation)
	}
	q := &lspQuery{st: st, m: m, c: c, in: in, lang: lang, content: content}
	if err := q.syncEdited(ctx, root, srv.Name); err != nil {
		return nil, q.fail(err)
	}
	m.WaitReady(ctx, c)
	began := c.Began()
	out, err := q.run(ctx)
	if err == nil && out.empty() && c.Began() > began {
		// The server started loading during the query: wait and ask again
		// rather than answer "nothing found".
		m.WaitReady(ctx, c)
		out, err = q.run(ctx)
	}
	if err != nil {
		return nil, q.fail(err)
	}
	out.limit = st.Limits.GrepChars
	return out, nil
}

func extName(ext string) string {
	if ext == "" {
		return "extensionless"
	}
	return ext
}

// readForLSP reads the file asked about through the sandbox.
func readForLSP(st *State, at sandbox.Path) ([]byte, *tool.Error) {
	fi, err := st.FS.Stat(at)
	if err != nil {
		return nil, fsErr(err, "stat", at.Abs)
	}
	if fi.IsDir() {
		return nil, toolErr(tool.InvalidInput, "%s is a directory, not a file; give a source file's path", at.Abs).With("path", at.Abs).With("kind", "directory")
	}
	if max := st.Limits.MaxFileSize; max > 0 && fi.Size() > max {
		return nil, toolErr(tool.FileTooLarge, "%s is %d bytes, over the %d-byte limit for files sent to a language server", at.Abs, fi.Size(), max).With("path", at.Abs)
	}
	f, err := st.FS.Open(at)
	if err != nil {
		return nil, fsErr(err, "open", at.Abs)
	}
	defer f.Close()
	b, err := io.ReadAll(f)
	if err != nil {
		return nil, fsErr(err, "read", at.Abs)
	}
	return b, nil
}

// lspQuery is one call's conversation with its server.
type lspQuery struct {
	st      *State
	m       *lsp.Manager
	c       *lsp.Client
	in      LSPInput
	lang    string
	content []byte
	lines   map[string][]string // files read for line texts, by absolute path
}

// syncEdited sends the server the file asked about and every file of its
// language in the same root that the session read or wrote, as they are
// now on disk, so answers reflect the session's edits.
func (q *lspQuery) syncEdited(ctx context.Context, root, server string) error {
	if _, err := q.c.Sync(ctx, q.in.at.Abs, q.lang, q.content); err != nil {
		return err
	}
	for _, p := range q.st.Ledger.paths() {
		if p == q.in.at.Abs {
			continue
		}
		srv, lang, _, ok := q.m.For(p)
		if !ok || srv.Name != server {
			continue
		}
		if r, _, in := q.st.FS.Contains(p); !in || q.st.FS.Roots()[r] != root {
			continue
		}
		sp, err := q.st.FS.Resolve("", p)
		if err != nil || !sp.Exists {
			continue
		}
		b, terr := readForLSP(q.st, sp)
		if terr != nil {
			continue
		}
		if _, err := q.c.Sync(ctx, p, lang, b); err != nil {
			return err
		}
	}
	return nil
}

// fail maps a client error to the tool's.
func (q *lspQuery) fail(err error) error {
	name := q.c.Server().Name
	var se *lsp.ServerError
	var te *tool.Error
	switch {
	case errors.As(err, &te):
		return te
	case errors.As(err, &se):
		return toolErr(tool.LSPServerError, "%s", se.Error()).With("server", name).With("operation", q.in.Operation).With("server_message", se.Message).With("method", se.Method)
	case errors.Is(err, lsp.ErrServerExited):
		return toolErr(tool.LSPServerUnavailable, "%v; the next call starts it anew", err).With("server", name).With("reason", "exited").With("operation", q.in.Operation)
	case errors.Is(err, context.Canceled), errors.Is(err, context.DeadlineExceeded):
		return err
	}
	return toolErr(tool.LSPServerUnavailable, "%v", err).With("server", name).With("operation", q.in.Operation)
}

// position is the call's position as the server counts: zero-based, the
// character in UTF-16 units.
func (q *lspQuery) position() (lsp.Position, error) {
	lines := lspLines(q.content)
	if q.in.Line > len(lines) {
		return lsp.Position{}, toolErr(tool.InvalidInput, "%s %d is past the end of %s, which has %d lines", param("line"), q.in.Line, q.in.Path, len(lines))
	}
	text := lines[q.in.Line-1]
	n := utf8.RuneCountInString(text)
	if q.in.Character > n+1 {
		return lsp.Position{}, toolErr(tool.InvalidInput, "%s %d is past the end of line %d of %s, which has %d characters", param("character"), q.in.Character, q.in.Line, q.in.Path, n)
	}
	return lsp.Position{Line: q.in.Line - 1, Character: utf16Units(text, q.in.Character-1)}, nil
}

func lspLines(b []byte) []string {
	s := strings.ReplaceAll(string(b), "\r\n", "\n")
	return strings.Split(s, "\n")
}

// utf16Units is how many UTF-16 units the first runes runes of s take.
func utf16Units(s string, runes int) int {
	n := 0
	for i, r := range []rune(s) {
		if i == runes {
			break
		}
		n++
		if r >= 0x10000 {
			n++
		}
	}
	return n
}

// runeColumn is the 1-based character of a UTF-16 offset in s.
func runeColumn(s string, units int) int {
	n, col := 0, 0
	for _, r := range s {
		if n >= units {
			break
		}
		n++
		if r >= 0x10000 {
			n++
		}
		col++
	}
	return col + 1
}

func (q *lspQuery) run(ctx context.Context) (*LSPOutput, error) {
	out := &LSPOutput{Operation: q.in.Operation, Path: q.in.Path, Server: q.c.Server().Name}
	pos, err := q.position()
	if err != nil {
		return nil, err
	}
	doc := lsp.TextDocumentIdentifier{URI: lsp.FileURI(q.in.at.Abs)}
	tdp := lsp.TextDocumentPositionParams{TextDocument: doc, Position: pos}
	var raw json.RawMessage
	switch q.in.Operation {
	case "goToDefinition", "goToImplementation", "findReferences":
		method, params := "textDocument/definition", any(tdp)
		switch q.in.Operation {
		case "goToImplementation":
			method = "textDocument/implementation"
		case "findReferences":
			rp := lsp.ReferenceParams{TextDocumentPositionParams: tdp}
			rp.Context.IncludeDeclaration = true
			method, params = "textDocument/references", rp
		}
		if err := q.c.Call(ctx, method, params, &raw); err != nil {
			return nil, err
		}
		locs, err := lsp.DecodeLocations(raw)
		if err != nil {
			return nil, fmt.Errorf("reading %s's answer: %w", method, err)
		}
		for _, l := range locs {
			out.Locations = append(out.Locations, q.location(l.URI, l.Range.Start))
		}
		slices.SortStableFunc(out.Locations, func(a, b LSPLocation) int {
			return cmpLoc(a.File, a.Line, a.Column, b.File, b.Line, b.Column)
		})
		out.Locations = slices.Compact(out.Locations)
		out.Files = countFiles(len(out.Locations), func(i int) string { return out.Locations[i].File })
	case "hover":
		var h *lsp.Hover
		if err := q.c.Call(ctx, "textDocument/hover", tdp, &h); err != nil {
			return nil, err
		}
		if h != nil && strings.TrimSpace(h.Text()) != "" {
			out.Hover = &LSPHover{Markdown: h.Text()}
			if h.Range != nil {
				l := q.location(doc.URI, h.Range.Start)
				out.Hover.Line, out.Hover.Column = l.Line, l.Column
			}
			out.Files = 1
		}
	case "documentSymbol":
		if err := q.c.Call(ctx, "textDocument/documentSymbol", map[string]any{"textDocument": doc}, &raw); err != nil {
			return nil, err
		}
		if err := q.documentSymbols(out, raw); err != nil {
			return nil, err
		}
	case "workspaceSymbol":
		out.Query = wordAt(lspLines(q.content)[pos.Line], q.in.Character-1)
		if err := q.c.Call(ctx, "workspace/symbol", map[string]any{"query": out.Query}, &raw); err != nil {
			return nil, err
		}
		var syms []lsp.SymbolInformation
		if !isJSONNull(raw) {
			if err := json.Unmarshal(raw, &syms); err != nil {
				return nil, fmt.Errorf("reading workspace/symbol's answer: %w", err)
			}
		}
		q.symbolInfos(out, syms)
	case "prepareCallHierarchy", "incomingCalls", "outgoingCalls":
		var items []lsp.CallHierarchyItem
		if err := q.c.Call(ctx, "textDocument/prepareCallHierarchy", tdp, &items); err != nil {
			return nil, err
		}
		if q.in.Operation == "prepareCallHierarchy" || len(items) == 0 {
			for _, it := range items {
				out.Calls = append(out.Calls, q.call(it))
			}
			out.Files = countFiles(len(out.Calls), func(i int) string { return out.Calls[i].File })
			return out, nil
		}
		item := q.call(items[0])
		out.Item = &item
		if q.in.Operation == "incomingCalls" {
			var calls []lsp.CallHierarchyIncomingCall
			if err := q.c.Call(ctx, "callHierarchy/incomingCalls", map[string]any{"item": items[0].Raw}, &calls); err != nil {
				return nil, err
			}
			for _, ic := range calls {
				c := q.call(ic.From)
				c.CallsFile = c.File
				c.At = q.positions(ic.From.URI, ic.FromRanges)
				out.Calls = append(out.Calls, c)
			}
		} else {
			var calls []lsp.CallHierarchyOutgoingCall
			if err := q.c.Call(ctx, "callHierarchy/outgoingCalls", map[string]any{"item": items[0].Raw}, &calls); err != nil {
				return nil, err
			}
			for _, oc := range calls {
				c := q.call(oc.To)
				c.CallsFile = q.location(items[0].URI, lsp.Position{}).File
				c.At = q.positions(items[0].URI, oc.FromRanges)
				out.Calls = append(out.Calls, c)
			}
		}
		slices.SortStableFunc(out.Calls, func(a, b LSPCall) int { return cmpLoc(a.File, a.Line, a.Column, b.File, b.Line, b.Column) })
		out.Files = countFiles(len(out.Calls), func(i int) string { return out.Calls[i].File })
	}
	return out, nil
}

func isJSONNull(raw json.RawMessage) bool { return len(raw) == 0 || string(raw) == "null" }

// cmpLoc orders positions by file (those shown relative to the working
// directory first), then line and column.
func cmpLoc(af string, al, ac int, bf string, bl, bc int) int {
	if aa, ba := filepath.IsAbs(af), filepath.IsAbs(bf); aa != ba {
		if ba {
			return -1
		}
		return 1
	}
	if af != bf {
		return strings.Compare(af, bf)
	}
	if al != bl {
		return al - bl
	}
	return ac - bc
}

func countFiles(n int, file func(int) string) int {
	seen := map[string]bool{}
	for i := range n {
		seen[file(i)] = true
	}
	return len(seen)
}

// wordAt is the identifier around the 0-based character i of line, "" when
// there is none.
func wordAt(line string, i int) string {
	rs := []rune(line)
	isWord := func(r rune) bool {
		return r == '_' || r == '$' || r >= '0' && r <= '9' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r > 0x7f
	}
	if i >= len(rs) || !isWord(rs[i]) {
		return ""
	}
	lo, hi := i, i
	for lo > 0 && isWord(rs[lo-1]) {
		lo--
	}
	for hi < len(rs) && isWord(rs[hi]) {
		hi++
	}
	return string(rs[lo:hi])
}

// documentSymbols reads documentSymbol's answer: a tree of
// DocumentSymbols, or flat SymbolInformation.
func (q *lspQuery) documentSymbols(out *LSPOutput, raw json.RawMessage) error {
	if isJSONNull(raw) {
		return nil
	}
	var probe []map[string]json.RawMessage
	if err := json.Unmarshal(raw, &probe); err != nil {
		return fmt.Errorf("reading textDocument/documentSymbol's answer: %w", err)
	}
	if len(probe) > 0 && probe[0]["location"] != nil {
		var syms []lsp.SymbolInformation
		if err := json.Unmarshal(raw, &syms); err != nil {
			return fmt.Errorf("reading textDocument/documentSymbol's answer: %w", err)
		}
		q.symbolInfos(out, syms)
		return nil
	}
	var syms []lsp.DocumentSymbol
	if err := json.Unmarshal(raw, &syms); err != nil {
		return fmt.Errorf("reading textDocument/documentSymbol's answer: %w", err)
	}
	uri := lsp.FileURI(q.in.at.Abs)
	var walk func([]lsp.DocumentSymbol, int)
	walk = func(ss []lsp.DocumentSymbol, depth int) {
		for _, s := range ss {
			l := q.location(uri, s.SelectionRange.Start)
			out.Symbols = append(out.Symbols, LSPSymbol{Name: s.Name, Kind: lsp.SymbolKindName(s.Kind), Detail: s.Detail,
				File: l.File, Line: s.Range.Start.Line + 1, Column: l.Column, Depth: depth, Text: l.Text})
			walk(s.Children, depth+1)
		}
	}
	walk(syms, 0)
	if len(out.Symbols) > 0 {
		out.Files = 1
	}
	return nil
}

func (q *lspQuery) symbolInfos(out *LSPOutput, syms []lsp.SymbolInformation) {
	for _, s := range syms {
		if s.Location.URI == "" {
			continue
		}
		var start lsp.Position
		if s.Location.Range != nil {
			start = s.Location.Range.Start
		}
		l := q.location(s.Location.URI, start)
		out.Symbols = append(out.Symbols, LSPSymbol{Name: s.Name, Kind: lsp.SymbolKindName(s.Kind), Container: s.ContainerName,
			File: l.File, Line: l.Line, Column: l.Column, Text: l.Text})
	}
	// Grouped by file, the files in the order the server ranked their
	// first symbol, the symbols of a file in its order.
	first := map[string]int{}
	for i, s := range out.Symbols {
		if _, ok := first[s.File]; !ok {
			first[s.File] = i
		}
	}
	slices.SortStableFunc(out.Symbols, func(a, b LSPSymbol) int { return first[a.File] - first[b.File] })
	out.Files = countFiles(len(out.Symbols), func(i int) string { return out.Symbols[i].File })
}

func (q *lspQuery) call(it lsp.CallHierarchyItem) LSPCall {
	l := q.location(it.URI, it.SelectionRange.Start)
	return LSPCall{Name: it.Name, Kind: lsp.SymbolKindName(it.Kind), Detail: it.Detail, File: l.File,
		Line: it.Range.Start.Line + 1, Column: l.Column, Text: l.Text}
}

func (q *lspQuery) positions(uri string, rs []lsp.Range) []LSPPos {
	var out []LSPPos
	for _, r := range rs {
		l := q.location(uri, r.Start)
		out = append(out, LSPPos{Line: l.Line, Column: l.Column})
	}
	return out
}

// location turns a server position into the tool's: the path relative to
// the working directory, 1-based line and character, and the line's text
// when the file is inside the roots (it is read through the sandbox; a
// file outside them, such as the standard library's, is not read).
func (q *lspQuery) location(uri string, p lsp.Position) LSPLocation {
	abs := lsp.URIPath(uri)
	if abs == "" {
		return LSPLocation{File: uri, Line: p.Line + 1, Column: p.Character + 1}
	}
	loc := LSPLocation{File: displayPath(q.st.Cwd(), abs), Line: p.Line + 1, Column: p.Character + 1}
	lines := q.fileLines(abs)
	if p.Line < len(lines) {
		text := lines[p.Line]
		loc.Column = runeColumn(text, p.Character)
		loc.Text = strings.TrimSpace(text)
		if utf8.RuneCountInString(loc.Text) > 200 {
			loc.Text = string([]rune(loc.Text)[:200]) + "…"
		}
	}
	return loc
}

// fileLines reads a file inside the roots, once per call.
func (q *lspQuery) fileLines(abs string) []string {
	if q.lines == nil {
		q.lines = map[string][]string{}
	}
	if l, ok := q.lines[abs]; ok {
		return l
	}
	var lines []string
	if abs == q.in.at.Abs {
		lines = lspLines(q.content)
	} else if sp, err := q.st.FS.Resolve("", abs); err == nil && sp.Exists {
		if b, terr := readForLSP(q.st, sp); terr == nil && !bytes.ContainsRune(b, 0) {
			lines = lspLines(b)
		}
	}
	q.lines[abs] = lines
	return lines
}

// displayPath is abs relative to cwd when it is inside it, else abs.
func displayPath(cwd, abs string) string {
	if rel, err := filepath.Rel(cwd, abs); err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return filepath.ToSlash(rel)
	}
	return abs
}

// empty reports whether the answer holds nothing.
func (o *LSPOutput) empty() bool {
	return len(o.Locations) == 0 && o.Hover == nil && len(o.Symbols) == 0 && len(o.Calls) == 0
}

// Content renders the answer: locations grouped by file with each line's
// text, bounded like grep's output; hover as the server's markdown; an
// empty answer said plainly.
func (o *LSPOutput) Content() []tool.Content {
	return []tool.Content{tool.Text(o.Text())}
}

// Text is Content's text.
func (o *LSPOutput) Text() string {
	at := fmt.Sprintf("%s at the given position", "the symbol")
	switch o.Operation {
	case "hover":
		if o.Hover == nil {
			return "No hover information for " + at + " (not on a symbol, or the server knows nothing of it)."
		}
		return o.Hover.Markdown
	case "goToDefinition", "goToImplementation", "findReferences":
		if len(o.Locations) == 0 {
			return map[string]string{
				"goToDefinition":     "No definition found for " + at + " (not on a symbol, or defined where the server does not look).",
				"goToImplementation": "No implementations found for " + at + ".",
				"findReferences":     "No references found for " + at + ".",
			}[o.Operation]
		}
		what := map[string]string{"goToDefinition": "definition", "goToImplementation": "implementation", "findReferences": "reference"}[o.Operation]
		b := newBounded(o.limit)
		b.line(fmt.Sprintf("%s in %s:", plural(len(o.Locations), what), plural(o.Files, "file")))
		last := ""
		for i, l := range o.Locations {
			if l.File != last {
				if !b.line("\n" + l.File) {
					b.omitted(len(o.Locations)-i, what)
					break
				}
				last = l.File
			}
			if !b.line(fmt.Sprintf("  %d:%d: %s", l.Line, l.Column, l.Text)) {
				b.omitted(len(o.Locations)-i, what)
				break
			}
		}
		return b.String()
	case "documentSymbol":
		if len(o.Symbols) == 0 {
			return "No symbols found in " + o.Path + "."
		}
		b := newBounded(o.limit)
		b.line(fmt.Sprintf("%s in %s:", plural(len(o.Symbols), "symbol"), o.Path))
		for i, s := range o.Symbols {
			t := fmt.Sprintf("%s%d:%d: %s %s", strings.Repeat("  ", s.Depth+1), s.Line, s.Column, strings.ToLower(s.Kind), s.Name)
			if s.Detail != "" {
				t += " " + s.Detail
			}
			if !b.line(t) {
				b.omitted(len(o.Symbols)-i, "symbol")
				break
			}
		}
		return b.String()
	case "workspaceSymbol":
		if o.Query == "" {
			return "No symbols searched: the position is not on a name; put it on the name to look for."
		}
		if len(o.Symbols) == 0 {
			return fmt.Sprintf("No symbols named like %q in the workspace.", o.Query)
		}
		b := newBounded(o.limit)
		b.line(fmt.Sprintf("%s named like %q in %s:", plural(len(o.Symbols), "symbol"), o.Query, plural(o.Files, "file")))
		last := ""
		for i, s := range o.Symbols {
			if s.File != last {
				if !b.line("\n" + s.File) {
					b.omitted(len(o.Symbols)-i, "symbol")
					break
				}
				last = s.File
			}
			t := fmt.Sprintf("  %d:%d: %s %s", s.Line, s.Column, strings.ToLower(s.Kind), s.Name)
			if s.Container != "" {
				t += " in " + s.Container
			}
			if !b.line(t) {
				b.omitted(len(o.Symbols)-i, "symbol")
				break
			}
		}
		return b.String()
	}
	// The call hierarchy.
	if o.Item == nil && o.Operation != "prepareCallHierarchy" || len(o.Calls) == 0 && o.Operation == "prepareCallHierarchy" {
		return "No function or method at the given position."
	}
	if len(o.Calls) == 0 {
		if o.Operation == "incomingCalls" {
			return fmt.Sprintf("Nothing calls %s %s.", strings.ToLower(o.Item.Kind), o.Item.Name)
		}
		return fmt.Sprintf("%s %s calls nothing.", o.Item.Kind, o.Item.Name)
	}
	what := map[string]string{"prepareCallHierarchy": "item", "incomingCalls": "caller", "outgoingCalls": "callee"}[o.Operation]
	b := newBounded(o.limit)
	head := fmt.Sprintf("%s in %s:", plural(len(o.Calls), what), plural(o.Files, "file"))
	if o.Item != nil {
		head = fmt.Sprintf("%s of %s %s in %s:", plural(len(o.Calls), what), strings.ToLower(o.Item.Kind), o.Item.Name, plural(o.Files, "file"))
	}
	b.line(head)
	last := ""
	for i, c := range o.Calls {
		if c.File != last {
			if !b.line("\n" + c.File) {
				b.omitted(len(o.Calls)-i, what)
				break
			}
			last = c.File
		}
		t := fmt.Sprintf("  %d:%d: %s %s", c.Line, c.Column, strings.ToLower(c.Kind), c.Name)
		if c.Detail != "" {
			t += " [" + c.Detail + "]"
		}
		if len(c.At) > 0 {
			var at []string
			for _, p := range c.At {
				at = append(at, fmt.Sprintf("%d:%d", p.Line, p.Column))
			}
			verb := "calls at"
			if o.Operation == "outgoingCalls" {
				verb = "called at"
			}
			t += fmt.Sprintf(" — %s %s %s", verb, c.CallsFile, strings.Join(at, ", "))
		}
		if !b.line(t) {
			b.omitted(len(o.Calls)-i, what)
			break
		}
	}
	return b.String()
}

// bounded builds a result of lines up to a number of characters.
type bounded struct {
	sb    strings.Builder
	limit int
}

func newBounded(limit int) *bounded {
	if limit <= 0 {
		limit = DefaultLimits().GrepChars
	}
	return &bounded{limit: limit}
}

// line adds s as a line, or reports false when it would pass the limit.
func (b *bounded) line(s string) bool {
	if b.sb.Len() > 0 && b.sb.Len()+1+len(s) > b.limit {
		return false
	}
	if b.sb.Len() > 0 {
		b.sb.WriteByte('\n')
	}
	b.sb.WriteString(s)
	return true
}

func (b *bounded) omitted(n int, what string) {
	fmt.Fprintf(&b.sb, "\n\n[%s more not shown: the result is over %d characters; ask about a narrower symbol or file]", plural(n, what), b.limit)
}

func (b *bounded) String() string { return b.sb.String() }

// paths returns the paths the ledger holds.
func (l *Ledger) paths() []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	out := make([]string, 0, len(l.files))
	for p := range l.files {
		out = append(out, p)
	}
	slices.Sort(out)
	return out
}
