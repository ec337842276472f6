package tools

import (
	"bytes"
	"cmp"
	"context"
	_ "embed"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/hands-dev/hands/internal/ignore"
	"github.com/hands-dev/hands/internal/match"
	"github.com/hands-dev/hands/internal/search"
	"github.com/hands-dev/hands/tool"
)

//go:embed grep.md
var grepDescription string

// grepModes are the valid output modes.
var grepModes = []string{"content", "files_with_matches", "count"}

// GrepInput is the input of the grep tool (seed 003's Grep parameters).
type GrepInput struct {
	Pattern    string `json:"pattern" jsonschema:"the regular expression to search for (RE2 syntax)"`
	Path       string `json:"path,omitempty" jsonschema:"file or directory to search; default the working directory"`
	Glob       string `json:"glob,omitempty" jsonschema:"glob filter for files, e.g. *.js or *.{ts,tsx}"`
	Type       string `json:"type,omitempty" jsonschema:"ripgrep file type to search, e.g. go, js, py, rust"`
	OutputMode string `json:"output_mode,omitempty" jsonschema:"content, files_with_matches (default) or count"`
	IgnoreCase bool   `json:"-i,omitzero" jsonschema:"case-insensitive search"`
	// LineNumbers defaults to true.
	LineNumbers *bool `json:"-n,omitempty" jsonschema:"show line numbers in content mode; default true"`
	After       int   `json:"-A,omitzero" jsonschema:"lines of context after each match (content mode)"`
	Before      int   `json:"-B,omitzero" jsonschema:"lines of context before each match (content mode)"`
	Context     int   `json:"-C,omitzero" jsonschema:"lines of context before and after each match (content mode)"`
	Multiline   bool  `json:"multiline,omitzero" jsonschema:"let . match newlines and patterns span lines"`
	HeadLimit   int   `json:"head_limit,omitzero" jsonschema:"show only the first N lines of output"`
	Offset      int   `json:"offset,omitzero" jsonschema:"skip the first N lines of output"`
	resolved
}

// GrepOutput is what the grep tool returns.
type GrepOutput struct {
	Pattern string `json:"pattern"`
	// Path is the file or directory searched.
	Path string `json:"path"`
	Mode string `json:"mode"`
	// Files are the matching files of the page shown, in output order
	// (newest first); in content mode with their lines.
	Files []GrepFile `json:"files"`
	// NumFiles and NumMatches count every matching file and matching line
	// (or match, in multiline mode), shown or not.
	NumFiles   int `json:"num_files"`
	NumMatches int `json:"num_matches"`
	// Lines are the output lines of the page, as ripgrep prints them.
	Lines []string `json:"lines,omitempty"`
	// Offset is the first output line shown; TotalLines counts them all;
	// More reports that lines follow the page.
	Offset     int  `json:"offset,omitzero"`
	TotalLines int  `json:"total_lines"`
	More       bool `json:"more,omitzero"`
	// CutByLimit reports that the page ended at the size bound rather than
	// at head_limit.
	CutByLimit bool `json:"cut_by_limit,omitzero"`
	// Skipped names the lines too long to search ("path:line (N bytes)"),
	// the first few of them.
	Skipped []string `json:"skipped,omitempty"`
}

// GrepFile is one matching file.
type GrepFile struct {
	Path  string     `json:"path"`
	Count int        `json:"count"`
	Lines []GrepLine `json:"lines,omitempty"`
}

// GrepLine is a matching or context line.
type GrepLine struct {
	Number int    `json:"number"`
	Text   string `json:"text"`
	Match  bool   `json:"match"`
}

// Grep returns the grep tool.
func Grep(lim Limits) tool.Tool {
	return tool.New(tool.Spec[GrepInput]{
		Name:           "grep",
		Enums:          map[string][]string{"output_mode": grepModes},
		Title:          "Search file contents",
		Description:    grepDescription,
		ReadOnly:       true,
		Idempotent:     true,
		MaxResultChars: lim.GrepChars + 2000,
		Resolve: func(_ context.Context, env *tool.Env, in GrepInput) (GrepInput, error) {
			st := stateOf(env)
			p, terr := searchDir(st, in.Path, !st.Behavior.GrepDirsOnly)
			if terr != nil {
				return in, terr
			}
			in.at = p
			return in, nil
		},
		Validate: validateGrep,
	}, runGrep)
}

func validateGrep(_ context.Context, _ *tool.Env, in GrepInput) (GrepInput, error) {
	if in.Pattern == "" {
		return in, toolErr(tool.InvalidInput, "%s is empty; give a regular expression to search for", param("pattern"))
	}
	if in.OutputMode != "" && !contains(grepModes, in.OutputMode) {
		return in, toolErr(tool.GrepInvalidOutputMode, "%s %q is not valid; use one of %s", param("output_mode"), in.OutputMode, strings.Join(grepModes, ", ")).With("output_mode", in.OutputMode)
	}
	for name, v := range map[string]int{"-A": in.After, "-B": in.Before, "-C": in.Context, "head_limit": in.HeadLimit, "offset": in.Offset} {
		if v < 0 {
			return in, toolErr(tool.InvalidInput, "%s is %d; give 0 or more", name, v)
		}
	}
	if in.Type != "" {
		if _, err := ignore.NewTypes([]string{in.Type}, nil); err != nil {
			return in, toolErr(tool.InvalidInput, "%s %q is not a known file type; use a ripgrep type such as go, js, ts, py, rust, java, c, cpp, md, json, yaml — or filter with %s", param("type"), in.Type, param("glob")).With("type", in.Type)
		}
	}
	if in.Glob != "" {
		if _, err := ignore.NewOverrides(splitGlobs(in.Glob)); err != nil {
			return in, toolErr(tool.InvalidInput, "%s %q is not valid: %v", param("glob"), in.Glob, err).With("glob", in.Glob)
		}
	}
	return in, nil
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// splitGlobs splits a glob filter on spaces and commas outside braces, so
// "*.ts *.tsx" and "*.{ts,tsx}" both work.
func splitGlobs(s string) []string {
	var out []string
	depth, start := 0, 0
	for i, c := range s {
		switch c {
		case '{':
			depth++
		case '}':
			depth--
		case ' ', ',':
			if depth == 0 {
				if start < i {
					out = append(out, s[start:i])
				}
				start = i + 1
			}
		}
	}
	if start < len(s) {
		out = append(out, s[start:])
	}
	return out
}

func runGrep(ctx context.Context, env *tool.Env, in GrepInput) (*GrepOutput, error) {
	st := stateOf(env)
	path := in.at.Abs
	m, err := match.Compile(in.Pattern, match.Options{IgnoreCase: in.IgnoreCase, Multiline: in.Multiline})
	if err != nil && st.Behavior.GrepBadPatternFindsNothing {
		mode := cmp.Or(in.OutputMode, "files_with_matches")
		return &GrepOutput{Pattern: in.Pattern, Path: path, Mode: mode, Files: []GrepFile{}, Lines: []string{}}, nil
	}
	if err != nil {
		var me *match.Error
		reason := err.Error()
		if errors.As(err, &me) {
			reason = me.Err.Error()
		}
		return nil, toolErr(tool.GrepInvalidPattern, "%s %q does not compile: %s; fix the regular expression (RE2 syntax: escape literal braces and parentheses)", param("pattern"), in.Pattern, reason).With("pattern", in.Pattern)
	}
	mode := search.FilesWithMatches
	switch in.OutputMode {
	case "content":
		mode = search.Content
	case "count":
		mode = search.Count
	}
	before, after := in.Before, in.After
	if in.Context > 0 {
		before, after = max(before, in.Context), max(after, in.Context)
	}
	opts := search.Options{
		Paths: []string{path}, Matcher: m, Mode: mode,
		Before: before, After: after, MaxLineBytes: st.Limits.LineChars,
		Skip:    searchSkip(st, false),
		Confine: st.FS.Allows,
		Hidden:  st.Behavior.GrepHidden,
	}
	if st.Behavior.GrepWholeLines {
		opts.MaxLineBytes = 0
	}
	if in.Glob != "" {
		opts.Globs = splitGlobs(in.Glob)
		if st.Behavior.GrepGlobFromPath {
			opts.Globs = anchorGlobs(opts.Globs)
		}
	}
	if in.Type != "" {
		opts.Types = []string{in.Type}
	}
	opts.Counts = &search.Counts{}
	rep := startProgress(ctx, env, st.Limits.SearchProgressAfter, searchProgress(opts.Counts, "files"))
	res, err := search.Grep(ctx, opts)
	rep.finish(searchProgress(opts.Counts, "files"))
	if err != nil {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		return nil, toolErr(tool.IOError, "could not search %s: %v", path, err).With("path", path)
	}
	if st.Behavior.GrepByPath && mode != search.FilesWithMatches {
		slices.SortStableFunc(res.Files, func(a, b search.File) int { return strings.Compare(a.Path, b.Path) })
	}
	var buf bytes.Buffer
	lineNumbers := in.LineNumbers == nil || *in.LineNumbers
	if err := search.Render(&buf, res.Files, search.RenderOptions{Mode: mode, LineNumbers: lineNumbers, Context: before > 0 || after > 0}); err != nil {
		return nil, toolErr(tool.IOError, "could not render results: %v", err)
	}
	out := &GrepOutput{Pattern: in.Pattern, Path: path, Mode: mode.String(), Files: []GrepFile{}, Lines: []string{}, NumFiles: len(res.Files), Offset: in.Offset}
	for _, f := range res.Files {
		out.NumMatches += f.Count
	}
	all := splitLines(buf.String())
	out.TotalLines = len(all)
	maxChars := st.Limits.GrepChars
	if st.Behavior.GrepWhole {
		maxChars = max(maxChars, GrepWholeChars)
	}
	page(out, all, in, maxChars)
	out.Files = pageFiles(res.Files, mode, in.Offset, len(out.Lines))
	for _, k := range res.Skipped {
		out.Skipped = append(out.Skipped, fmt.Sprintf("%s:%d (%d bytes)", k.Path, k.Line, k.Length))
	}
	return out, nil
}

// GrepWholeChars bounds grep's output lines under Behavior.GrepWhole.
const GrepWholeChars = 32 << 20

// page selects the output lines from offset, up to head_limit and the size
// bound.
func page(out *GrepOutput, all []string, in GrepInput, maxChars int) {
	if in.Offset >= len(all) {
		return
	}
	rest := all[in.Offset:]
	if in.HeadLimit > 0 && in.HeadLimit < len(rest) {
		rest = rest[:in.HeadLimit]
		out.More = true
	}
	size := 0
	for i, l := range rest {
		size += len(l) + 1
		if size > maxChars && i > 0 {
			rest = rest[:i]
			out.More, out.CutByLimit = true, true
			break
		}
	}
	out.Lines = rest
	if in.Offset+len(rest) < len(all) {
		out.More = true
	}
}

// pageFiles returns the files of the shown page: for files and count modes
// one per line; for content mode the files whose lines appear (whole).
func pageFiles(files []search.File, mode search.Mode, offset, n int) []GrepFile {
	var out []GrepFile
	if mode != search.Content {
		for i := offset; i < offset+n && i < len(files); i++ {
			out = append(out, GrepFile{Path: files[i].Path, Count: files[i].Count})
		}
		return out
	}
	line := 0
	for _, f := range files {
		first, last := line, line+len(f.Lines)
		line = last
		if last <= offset || first >= offset+n {
			continue
		}
		gf := GrepFile{Path: f.Path, Count: f.Count}
		for _, l := range f.Lines {
			gf.Lines = append(gf.Lines, GrepLine{Number: l.Number, Text: l.Text, Match: l.Match})
		}
		out = append(out, gf)
	}
	return out
}

// Content renders the output as the native profile shows it.
func (o *GrepOutput) Content() []tool.Content {
	skipped := ""
	if len(o.Skipped) > 0 {
		skipped = fmt.Sprintf("\n\n(lines too long to search, skipped: %s; search them with a narrower tool, e.g. bash with head -c)", strings.Join(o.Skipped, ", "))
	}
	if o.NumFiles == 0 {
		return []tool.Content{tool.Text(fmt.Sprintf("no matches for %q in %s", o.Pattern, o.Path) + skipped)}
	}
	var b strings.Builder
	b.WriteString(strings.Join(o.Lines, "\n"))
	if o.More {
		last := o.Offset + len(o.Lines)
		fmt.Fprintf(&b, "\n\n(showing output lines %d-%d of %d; %d more: call again with offset %d", o.Offset+1, last, o.TotalLines, o.TotalLines-last, last)
		if o.CutByLimit {
			b.WriteString(", or narrow the search with path, glob or type")
		}
		b.WriteString(")")
	} else if o.Offset > 0 && len(o.Lines) == 0 {
		fmt.Fprintf(&b, "(offset %d is past the end of the %d output lines)", o.Offset, o.TotalLines)
	}
	switch o.Mode {
	case "files_with_matches":
		fmt.Fprintf(&b, "\n\n[%d files]", o.NumFiles)
	case "count":
		fmt.Fprintf(&b, "\n\n[%d matches in %d files]", o.NumMatches, o.NumFiles)
	}
	b.WriteString(skipped)
	return []tool.Content{tool.Text(strings.TrimPrefix(b.String(), "\n"))}
}
