package tools

import (
	"context"
	_ "embed"
	"errors"
	"fmt"

	"github.com/hands-dev/hands/internal/textedit"
	"github.com/hands-dev/hands/tool"
)

//go:embed multi_edit.md
var multiEditDescription string

// MultiEditInput is the input of the multi-edit tool.
type MultiEditInput struct {
	Path  string     `json:"path" jsonschema:"the file to edit: absolute, or relative to the working directory"`
	Edits []EditItem `json:"edits" jsonschema:"the edits, applied in order, each to the text the earlier ones produced; all succeed or none is applied"`
	editTarget
}

// EditItem is one edit of a multi-edit.
type EditItem struct {
	OldStr     string `json:"old_str" jsonschema:"the exact text to replace, as it is after the earlier edits; it must occur exactly once unless replace_all is set"`
	NewStr     string `json:"new_str" jsonschema:"the text to put in its place; empty deletes old_str"`
	ReplaceAll bool   `json:"replace_all,omitzero" jsonschema:"replace every occurrence of old_str; default false"`
}

// MultiEdit returns the multi-edit tool (native name multi_edit).
func MultiEdit() tool.Tool {
	return tool.New(tool.Spec[MultiEditInput]{
		Name:        "multi_edit",
		Title:       "Make several edits to one file",
		Description: multiEditDescription,
		Destructive: true,
		Resolve: func(_ context.Context, env *tool.Env, in MultiEditInput) (MultiEditInput, error) {
			err := in.resolve(env, in.Path, true)
			return in, err
		},
		Validate: func(_ context.Context, env *tool.Env, in MultiEditInput) (MultiEditInput, error) {
			switch {
			case len(in.Edits) == 0:
				return in, toolErr(tool.InvalidInput, "%s is empty; give at least one {%s, %s} edit", param("edits"), tool.Field("edits[0].old_str"), tool.Field("edits[0].new_str")).With("path", in.Path)
			case len(in.Edits) > stateOf(env).Limits.MaxEdits:
				return in, toolErr(tool.InvalidInput, "%s has %d entries, over the limit of %d; split the change into several calls", param("edits"), len(in.Edits), stateOf(env).Limits.MaxEdits).With("path", in.Path)
			}
			for i, e := range in.Edits {
				if err := checkEdit(in.Path, e.edit(), fmt.Sprintf("edits[%d]", i), false); err != nil {
					return in, err
				}
			}
			err := in.load(env)
			return in, err
		},
	}, runMultiEdit)
}

func (e EditItem) edit() textedit.Edit {
	return textedit.Edit{Old: e.OldStr, New: e.NewStr, ReplaceAll: e.ReplaceAll}
}

func runMultiEdit(_ context.Context, env *tool.Env, in MultiEditInput) (*EditOutput, error) {
	st := stateOf(env)
	f, terr := in.file.current(st)
	if terr != nil {
		return nil, terr
	}
	edits := make([]textedit.Edit, len(in.Edits))
	for i, e := range in.Edits {
		edits[i] = e.edit()
	}
	res, err := textedit.ApplyAllParts(f.text, edits)
	if err != nil {
		var ee *textedit.EditError
		if errors.As(err, &ee) {
			terr := editErr(f, ee.Err, edits[ee.Index], fmt.Sprintf("edits[%d]", ee.Index))
			switch {
			case ee.Index == 1:
				terr.Appendf(" (edits apply in order: %s is matched against the text as %s left it)", param("edits[1]"), param("edits[0]"))
			case ee.Index > 1:
				terr.Appendf(" (edits apply in order: %s is matched against the text as %s to %s left it)", param(fmt.Sprintf("edits[%d]", ee.Index)), param("edits[0]"), param(fmt.Sprintf("edits[%d]", ee.Index-1)))
			}
			terr.Appendf("; no edit was applied")
			return nil, terr.With("index", ee.Index)
		}
		if errors.Is(err, textedit.ErrNoChange) {
			return nil, toolErr(tool.InvalidInput, "the edits together leave %s as it is; nothing was changed", f.p.Abs).With("path", f.p.Abs)
		}
		return nil, toolErr(tool.InternalError, "edit of %s failed: %v", f.p.Abs, err).With("path", f.p.Abs)
	}
	newLines := 1
	for _, e := range edits {
		newLines = max(newLines, lineCount(e.New))
	}
	return finishEdit(st, f, res, len(edits), newLines)
}
