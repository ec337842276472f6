package tools

import (
	"context"
	_ "embed"
	"errors"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/hands-dev/hands/internal/notebook"
	"github.com/hands-dev/hands/internal/sandbox"
	"github.com/hands-dev/hands/tool"
)

//go:embed notebook_edit.md
var notebookEditDescription string

// NotebookEditInput is the input of the notebook-edit tool.
type NotebookEditInput struct {
	Path string `json:"path" jsonschema:"the .ipynb notebook to edit: absolute, or relative to the working directory"`
	// CellID names the target cell by id.
	CellID string `json:"cell_id,omitempty" jsonschema:"the id of the cell to replace or delete, or to insert after (as read shows it)"`
	// CellIndex names the target cell by 0-based position; nil means not
	// given (0 is the first cell).
	CellIndex *int   `json:"cell_index,omitempty" jsonschema:"the 0-based index of the cell to replace or delete, or to insert after; use it when cells have no ids"`
	NewSource string `json:"new_source" jsonschema:"the new source of the cell (replace, insert); ignored by delete"`
	CellType  string `json:"cell_type,omitempty" jsonschema:"code or markdown (or raw); required by insert, and for replace changes the cell's type (default: keep it)"`
	EditMode  string `json:"edit_mode,omitempty" jsonschema:"replace (default), insert or delete"`
	resolved
	// prior is the notebook as validation loaded it.
	prior *prior
}

// NotebookEditOutput is what the notebook-edit tool returns.
type NotebookEditOutput struct {
	Path string `json:"path"`
	// EditMode is replace, insert or delete.
	EditMode string `json:"edit_mode"`
	// CellIndex is the 0-based index of the cell: where it is now (replace,
	// insert) or where it was (delete).
	CellIndex int `json:"cell_index"`
	// CellID is the cell's id, "" in a notebook without ids.
	CellID string `json:"cell_id,omitempty"`
	// CellType is the cell's type.
	CellType string `json:"cell_type"`
	// Bytes is the size of the notebook after the edit.
	Bytes int `json:"bytes"`
}

// NotebookEdit returns the notebook-edit tool (native name notebook_edit).
func NotebookEdit() tool.Tool {
	return tool.New(tool.Spec[NotebookEditInput]{
		Name:        "notebook_edit",
		Enums:       map[string][]string{"edit_mode": {"replace", "insert", "delete"}, "cell_type": {"code", "markdown", "raw"}},
		Title:       "Edit a Jupyter notebook cell",
		Description: notebookEditDescription,
		Destructive: true,
		Resolve: func(_ context.Context, env *tool.Env, in NotebookEditInput) (NotebookEditInput, error) {
			err := in.resolve(env, in.Path, true)
			return in, err
		},
		Validate: func(_ context.Context, env *tool.Env, in NotebookEditInput) (NotebookEditInput, error) {
			if _, err := notebookEdit(in); err != nil {
				return in, err
			}
			pr, terr := loadNotebook(stateOf(env), in.at)
			if terr != nil {
				return in, terr
			}
			in.prior = pr
			return in, nil
		},
	}, runNotebookEdit)
}

// loadNotebook loads the notebook at p for an edit: a .ipynb file inside
// the roots, within the size limit, read by this session and unchanged
// since.
func loadNotebook(st *State, p sandbox.Path) (*prior, *tool.Error) {
	if !strings.EqualFold(filepath.Ext(p.Abs), ".ipynb") {
		return nil, toolErr(tool.InvalidInput, "%s is not a Jupyter notebook (.ipynb); edit other files with the edit tool", p.Abs).With("path", p.Abs)
	}
	fi, terr := statTarget(st, p, "edit")
	if terr != nil {
		return nil, terr
	}
	if fi == nil {
		return nil, toolErr(tool.PathNotFound, "%s does not exist; check the path (to create a notebook, write its JSON whole)", p.Abs).With("path", p.Abs)
	}
	if fi.Size() > st.Limits.MaxFileSize {
		return nil, toolErr(tool.FileTooLarge, "%s is %d bytes, over the %d-byte limit for edits", p.Abs, fi.Size(), st.Limits.MaxFileSize).With("path", p.Abs)
	}
	data, terr := readFile(st, p)
	if terr != nil {
		return nil, terr
	}
	if _, terr := checkFresh(st, p, fi, data, "edit"); terr != nil {
		return nil, terr
	}
	return &prior{fi: fi, data: data}, nil
}

// notebookEdit checks the input and turns it into a notebook.Edit.
func notebookEdit(in NotebookEditInput) (notebook.Edit, *tool.Error) {
	e := notebook.Edit{CellID: in.CellID, Index: notebook.NoCell, CellType: in.CellType, Source: in.NewSource}
	switch in.EditMode {
	case "", "replace":
		e.Mode = notebook.Replace
	case "insert":
		e.Mode = notebook.Insert
	case "delete":
		e.Mode = notebook.Delete
	default:
		return e, toolErr(tool.InvalidInput, "%s %q is not one of replace, insert or delete; leave it out to replace a cell", param("edit_mode"), in.EditMode).With("path", in.Path)
	}
	switch in.CellType {
	case "", "code", "markdown", "raw":
	default:
		return e, toolErr(tool.InvalidInput, "%s %q is not one of code, markdown or raw", param("cell_type"), in.CellType).With("path", in.Path)
	}
	if in.CellIndex != nil {
		if in.CellID != "" {
			return e, toolErr(tool.InvalidInput, "both %s %q and %s %d are given; name the cell by one of them", param("cell_id"), in.CellID, param("cell_index"), *in.CellIndex).With("path", in.Path)
		}
		if *in.CellIndex < 0 {
			return e, toolErr(tool.InvalidInput, "%s is %d; give a 0-based cell index (0 is the first cell)", param("cell_index"), *in.CellIndex).With("path", in.Path)
		}
		e.Index = *in.CellIndex
	}
	switch {
	case e.Mode != notebook.Insert && in.CellID == "" && in.CellIndex == nil:
		return e, toolErr(tool.InvalidInput, "%s needs a cell: give cell_id or cell_index (0-based)", e.Mode).With("path", in.Path)
	case e.Mode == notebook.Insert && in.CellType == "":
		return e, toolErr(tool.InvalidInput, "insert needs cell_type: code or markdown").With("path", in.Path).With("missing", "cell_type")
	}
	return e, nil
}

func runNotebookEdit(_ context.Context, env *tool.Env, in NotebookEditInput) (*NotebookEditOutput, error) {
	st := stateOf(env)
	e, terr := notebookEdit(in)
	if terr != nil {
		return nil, terr
	}
	e.SourceString = st.Behavior.NotebookSourceString
	p := in.at
	pr := in.prior
	if fi, err := st.FS.Stat(p); pr == nil || err != nil || !sameFile(pr.fi, fi) {
		// Changed since validation: load and check it again.
		if pr, terr = loadNotebook(st, p); terr != nil {
			return nil, terr
		}
	}
	out, res, err := notebook.Apply(pr.data, e)
	if err != nil {
		return nil, notebookErr(p.Abs, err)
	}
	if int64(len(out)) > st.Limits.MaxFileSize {
		return nil, toolErr(tool.FileTooLarge, "the edit would make %s %d bytes, over the %d-byte limit; nothing was changed", p.Abs, len(out), st.Limits.MaxFileSize).With("path", p.Abs)
	}
	if _, terr := commit(st, p, out); terr != nil {
		return nil, terr
	}
	return &NotebookEditOutput{Path: p.Abs, EditMode: e.Mode.String(), CellIndex: res.Index, CellID: res.ID, CellType: res.Type, Bytes: len(out)}, nil
}

// notebookErr maps an error of notebook.Apply to a coded error.
func notebookErr(path string, err error) *tool.Error {
	var nf *notebook.CellNotFoundError
	switch {
	case errors.As(err, &nf):
		te := toolErr(tool.InvalidInput, "no such cell in %s: %v; read the notebook to see its cells", path, err).With("path", path).With("cell_count", nf.Count)
		if nf.ID != "" {
			return te.With("cell_id", nf.ID)
		}
		return te.With("cell_index", nf.Index)
	case errors.Is(err, notebook.ErrNotNotebook):
		return toolErr(tool.InvalidInput, "%s cannot be edited as a notebook: %v; fix its JSON with the edit tool", path, err).With("path", path)
	}
	return toolErr(tool.InvalidInput, "cannot edit %s: %v", path, err).With("path", path)
}

// Content renders the output as the native profile shows it.
func (o *NotebookEditOutput) Content() []tool.Content {
	cell := fmt.Sprintf("cell %d (", o.CellIndex)
	if o.CellID != "" {
		cell += "id " + o.CellID + ", "
	}
	cell += o.CellType + ")"
	var s string
	switch o.EditMode {
	case "insert":
		s = fmt.Sprintf("Inserted %s in %s.", cell, o.Path)
	case "delete":
		s = fmt.Sprintf("Deleted %s from %s; the cells after it moved up by one.", cell, o.Path)
	default:
		s = fmt.Sprintf("Replaced %s in %s.", cell, o.Path)
	}
	return []tool.Content{tool.Text(s)}
}
