package tools

import (
	"context"
	_ "embed"
	"errors"
	"fmt"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/hands-dev/hands/internal/textedit"
	"github.com/hands-dev/hands/tool"
)

//go:embed edit.md
var editDescription string

// EditInput is the input of the edit tool.
type EditInput struct {
	Path       string `json:"path" jsonschema:"the file to edit: absolute, or relative to the working directory"`
	OldStr     string `json:"old_str" jsonschema:"the exact text to replace, as it appears in the file (without the line-number prefixes of read output); it must occur exactly once unless replace_all or expected_replacements says otherwise"`
	NewStr     string `json:"new_str" jsonschema:"the text to put in its place; empty deletes old_str"`
	ReplaceAll bool   `json:"replace_all,omitzero" jsonschema:"replace every occurrence of old_str instead of requiring exactly one; default false"`
	// ExpectedReplacements, when positive, is the number of occurrences the
	// caller expects; all of them are replaced.
	ExpectedReplacements int `json:"expected_replacements,omitzero" jsonschema:"the number of occurrences of old_str you expect; the edit fails unless it occurs exactly that many times, and then replaces them all"`
	editTarget
	// create is set when an empty old_str creates the missing file
	// (Behavior.EditCreatesFile).
	create bool
}

// EditOutput is what the edit and multi-edit tools return.
type EditOutput struct {
	Path string `json:"path"`
	// Edits is the number of edits applied (1 for the edit tool).
	Edits int `json:"edits"`
	// Replacements is the number of occurrences replaced.
	Replacements int `json:"replacements"`
	// Lines are the 1-based lines at which the replaced occurrences started,
	// each counted in the text its edit was applied to.
	Lines []int `json:"lines"`
	// Normalization names the normalisation that made old_str match, when
	// it did not match exactly: line-endings, trailing-whitespace,
	// line-number-prefix or typographic-quotes (for multi-edit, per edit).
	Normalization string `json:"normalization,omitempty"`
	// Encoding names the file's encoding when it is not plain UTF-8 with LF
	// line endings; the edit kept it.
	Encoding string `json:"encoding,omitempty"`
	// Bytes is the size of the file after the edit.
	Bytes int `json:"bytes"`
	// LinesAdded and LinesRemoved count the changed lines of the diff.
	LinesAdded   int `json:"lines_added"`
	LinesRemoved int `json:"lines_removed"`
	// NewText is the file's text after the edit around the first
	// replacement, from line NewTextLine to at least 8 lines past the
	// replaced text, for profiles that show a snippet of it (a large file
	// is not held whole).
	NewText     string `json:"-"`
	NewTextLine int    `json:"-"`
	// Diff is the whole unified diff of the change.
	Diff string `json:"diff"`
	// DiffSummary is the diff as shown to the model: long diffs are cut.
	DiffSummary string `json:"diff_summary"`
}

// diffShownLines bounds the diff shown in an edit's text result.
const diffShownLines = 60

// Edit returns the edit tool (native name str_replace).
func Edit() tool.Tool {
	return tool.New(tool.Spec[EditInput]{
		Name:        "edit",
		Title:       "Edit a file by exact string replacement",
		Description: editDescription,
		Destructive: true,
		Resolve: func(_ context.Context, env *tool.Env, in EditInput) (EditInput, error) {
			err := in.resolve(env, in.Path, true)
			return in, err
		},
		Validate: func(_ context.Context, env *tool.Env, in EditInput) (EditInput, error) {
			st := stateOf(env)
			if st.Behavior.EditRefusesNotebooks && strings.EqualFold(filepath.Ext(in.at.Abs), ".ipynb") {
				return in, toolErr(tool.InvalidInput, "%s is a Jupyter notebook; change its cells with %s", in.at.Abs, tool.ToolName("notebook_edit")).With("path", in.at.Abs).With("kind", "notebook")
			}
			if st.Behavior.EditCreatesFile && in.OldStr == "" {
				fi, terr := statTarget(st, in.at, "edit")
				if terr != nil {
					return in, terr
				}
				if fi != nil {
					return in, toolErr(tool.InvalidInput, "%s is empty but %s already exists; an empty %[1]s only creates a new file, so give the exact text to replace", param("old_str"), in.at.Abs).With("path", in.at.Abs).With("kind", "exists")
				}
				in.create = true
				return in, nil
			}
			if err := checkEdit(in.Path, textedit.Edit{Old: in.OldStr, New: in.NewStr, ReplaceAll: in.ReplaceAll, Expected: in.ExpectedReplacements}, "", stateOf(env).Behavior.EditIdentical); err != nil {
				return in, err
			}
			err := in.load(env)
			return in, err
		},
	}, runEdit)
}

func runEdit(_ context.Context, env *tool.Env, in EditInput) (*EditOutput, error) {
	st := stateOf(env)
	if in.create {
		return createByEdit(st, in)
	}
	f, terr := in.file.current(st)
	if terr != nil {
		return nil, terr
	}
	e := textedit.Edit{Old: in.OldStr, New: in.NewStr, ReplaceAll: in.ReplaceAll, Expected: in.ExpectedReplacements}
	res, err := applyEdit(st, f.text, e)
	if err != nil {
		return nil, editErr(f, err, e, "")
	}
	return finishEdit(st, f, res, 1, lineCount(e.New))
}

// createByEdit creates the missing file of an edit with an empty old_str.
func createByEdit(st *State, in EditInput) (*EditOutput, error) {
	if fi, terr := statTarget(st, in.at, "edit"); terr != nil {
		return nil, terr
	} else if fi != nil {
		return nil, toolErr(tool.FileChanged, "%s was created by something else since this call was checked; read it, then edit it", in.at.Abs).With("path", in.at.Abs)
	}
	data := []byte(in.NewStr)
	if int64(len(data)) > st.Limits.MaxFileSize {
		return nil, toolErr(tool.FileTooLarge, "%s is %d bytes, over the %d-byte limit; write a smaller file", param("new_str"), len(data), st.Limits.MaxFileSize).With("path", in.at.Abs)
	}
	if _, terr := commit(st, in.at, data); terr != nil {
		return nil, terr
	}
	diff := textedit.Diff(in.at.Rel, "", in.NewStr, 3)
	out := &EditOutput{Path: in.at.Abs, Edits: 1, Replacements: 1, Lines: []int{1}, Bytes: len(data), NewText: in.NewStr, NewTextLine: 1,
		Diff: diff, DiffSummary: textedit.Summarize(diff, diffShownLines)}
	out.LinesAdded, out.LinesRemoved = diffStat(diff)
	return out, nil
}

// checkEdit is the validation of one edit that needs no file: at is ""
// for the edit tool and "edits[i]" for multi-edit; identical lets old and
// new text be the same (Behavior.EditIdentical).
func checkEdit(path string, e textedit.Edit, at string, identical bool) *tool.Error {
	old, nw, exp := param(join(at, "old_str")), param(join(at, "new_str")), param(join(at, "expected_replacements"))
	switch {
	case e.Old == "":
		return toolErr(tool.InvalidInput, "%s is empty; give the exact text to replace (to create a file, write it whole instead)", old).With("path", path)
	case e.Old == e.New && !identical:
		return toolErr(tool.InvalidInput, "%s and %s are identical, so the edit would change nothing; put the replacement text in %[2]s", old, nw).With("path", path)
	case e.Expected < 0:
		return toolErr(tool.InvalidInput, "%s is %d; give the number of occurrences you expect (1 or more), or leave it out", exp, e.Expected).With("path", path)
	}
	return nil
}

// finishEdit encodes and writes the edited text and builds the output.
// The new text is res.Parts (textedit.ApplyParts) or res.Text: parts are
// slices of the old text, so a large file is streamed to disk, diffed and
// shown around the change without a second whole copy. newLines is the
// most lines a replacement has, to size the excerpt of the new text kept
// for profiles that show one.
func finishEdit(st *State, f *textFile, res textedit.Result, edits, newLines int) (*EditOutput, error) {
	parts := res.Parts
	if parts == nil {
		parts = []string{res.Text}
	}
	var diff string
	if res.Regions != nil {
		diff = textedit.DiffRegions(f.p.Rel, f.text, res.Regions, 3)
	} else {
		diff = textedit.DiffParts(f.p.Rel, f.text, parts, 3)
	}
	size, write, terr := f.encode(parts, st)
	if terr != nil {
		return nil, terr
	}
	if _, terr := commitFrom(st, f.p, write); terr != nil {
		return nil, terr
	}
	// The lines around the first replacement, which starts on the same
	// line in the new text as in the old.
	from := 1
	if len(res.Lines) > 0 {
		from = max(1, res.Lines[0]-newTextMargin)
	}
	out := &EditOutput{
		Path: f.p.Abs, Edits: edits, Replacements: res.Count, Lines: res.Lines,
		Normalization: res.Normalization, Encoding: encodingLabel(f.enc), Bytes: int(size),
		Diff: diff, DiffSummary: textedit.Summarize(diff, diffShownLines),
		NewText: textedit.LineWindow(parts, from, from+2*newTextMargin+newLines+1), NewTextLine: from,
	}
	out.LinesAdded, out.LinesRemoved = diffStat(diff)
	return out, nil
}

// newTextMargin is how many lines EditOutput.NewText holds before the
// first replacement, and after it.
const newTextMargin = 8

// lineCount is the number of lines of s as strings.Split counts them.
func lineCount(s string) int { return strings.Count(s, "\n") + 1 }

// diffStat counts the added and removed lines of a unified diff.
func diffStat(diff string) (added, removed int) {
	for l := range strings.Lines(diff) {
		switch {
		case strings.HasPrefix(l, "+++ "), strings.HasPrefix(l, "--- "):
		case strings.HasPrefix(l, "+"):
			added++
		case strings.HasPrefix(l, "-"):
			removed++
		}
	}
	return added, removed
}

// editErr maps an error of textedit.Apply to a coded error. prefix is ""
// for the edit tool and "edits[i]: " for multi-edit.
func editErr(f *textFile, err error, e textedit.Edit, at string) *tool.Error {
	old, nw, exp, all := param(join(at, "old_str")), param(join(at, "new_str")), param(join(at, "expected_replacements")), param(join(at, "replace_all"))
	prefix := ""
	if at != "" {
		prefix = at + ": "
	}
	var (
		nf *textedit.NotFoundError
		ae *textedit.AmbiguousError
		ce *textedit.CountMismatchError
	)
	path := f.p.Abs
	switch {
	case errors.As(err, &nf):
		fix := "read the file again and copy the text exactly, indentation included"
		if nf.Hint != "" {
			fix = nf.Hint
		}
		return toolErr(tool.StrReplaceNotFound, "%s was not found in %s; %s", old, path, fix).With("path", path).With("old_str", e.Old).With("hint", nf.Hint)
	case errors.As(err, &ae):
		return toolErr(tool.StrReplaceAmbiguous, "%s occurs %d times in %s (%s); add surrounding lines to %[1]s so that it matches exactly once, or set %[5]s to true to replace every occurrence",
			old, ae.Count, path, formatLines(ae.Lines, ae.Count), all).
			With("path", path).With("old_str", e.Old).With("count", ae.Count).With("lines", ae.Lines)
	case errors.As(err, &ce):
		return toolErr(tool.StrReplaceAmbiguous, "%s occurs %d times in %s (%s), but %s is %d; correct %[5]s, or change %[1]s so that it matches the occurrences you mean",
			old, ce.Found, path, formatLines(ce.Lines, ce.Found), exp, ce.Expected).
			With("path", path).With("old_str", e.Old).With("count", ce.Found).With("expected", ce.Expected).With("lines", ce.Lines)
	case errors.Is(err, textedit.ErrNoChange):
		return toolErr(tool.InvalidInput, "%sthe edit would leave %s as it is (%v); put the text you want in %s", prefix, path, err, nw).With("path", path)
	case errors.Is(err, textedit.ErrEmptyOld), errors.Is(err, textedit.ErrNegativeExpected):
		return checkEdit(path, e, at, false)
	}
	return toolErr(tool.InternalError, "%sedit of %s failed: %v", prefix, path, err).With("path", path)
}

// formatLines renders the lines of occurrences as "line 3" or "lines 3, 7
// and 9", each line once, noting how many occurrences of total the list
// leaves out.
func formatLines(lines []int, total int) string {
	var s []string
	for i, l := range lines {
		if i == 0 || l != lines[i-1] {
			s = append(s, strconv.Itoa(l))
		}
	}
	switch {
	case len(s) == 0:
		return "no lines"
	case total > len(lines):
		return "lines " + strings.Join(s, ", ") + fmt.Sprintf(" and %d more occurrences", total-len(lines))
	case len(s) == 1:
		return "line " + s[0]
	}
	return "lines " + strings.Join(s[:len(s)-1], ", ") + " and " + s[len(s)-1]
}

// Content renders the output as the native profile shows it.
func (o *EditOutput) Content() []tool.Content {
	var b strings.Builder
	occ := "occurrence"
	if o.Replacements != 1 {
		occ += "s"
	}
	if o.Edits > 1 {
		fmt.Fprintf(&b, "Edited %s: %d edits, %d %s replaced", o.Path, o.Edits, o.Replacements, occ)
	} else {
		fmt.Fprintf(&b, "Edited %s: %d %s replaced", o.Path, o.Replacements, occ)
		if len(o.Lines) > 0 {
			fmt.Fprintf(&b, " (%s)", formatLines(o.Lines[:min(len(o.Lines), 20)], len(o.Lines)))
		}
	}
	b.WriteString(".")
	if o.Encoding != "" {
		fmt.Fprintf(&b, " Kept its encoding: %s.", o.Encoding)
	}
	if o.Normalization != "" {
		fmt.Fprintf(&b, "\nold_str did not match exactly; it matched after normalising: %s.", o.Normalization)
	}
	if o.DiffSummary != "" {
		b.WriteString("\n\n" + strings.TrimSuffix(o.DiffSummary, "\n"))
	}
	return []tool.Content{tool.Text(b.String())}
}
