package notebook

import (
	"bytes"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"slices"
	"strings"
)

// Mode is what an Edit does to a cell.
type Mode int

const (
	// Replace replaces the source (and optionally the type) of a cell.
	Replace Mode = iota
	// Insert adds a cell after the target cell, or first when there is none.
	Insert
	// Delete removes a cell.
	Delete
)

// String returns "replace", "insert" or "delete".
func (m Mode) String() string {
	switch m {
	case Replace:
		return "replace"
	case Insert:
		return "insert"
	case Delete:
		return "delete"
	}
	return fmt.Sprintf("Mode(%d)", int(m))
}

// NoCell is the Edit.Index that names no cell: with Insert and no CellID, the
// new cell goes first.
const NoCell = -1

// Edit is one change to a notebook's cells.
type Edit struct {
	// Mode is Replace, Insert or Delete.
	Mode Mode
	// CellID names the target cell by id. When it is "", Index does.
	CellID string
	// Index names the target cell by 0-based position when CellID is "";
	// NoCell (any negative value) names none, which only Insert accepts.
	Index int
	// CellType is "code", "markdown" or "raw". Insert requires it; for
	// Replace, "" keeps the cell's type.
	CellType string
	// Source is the new cell's text (Replace and Insert).
	Source string
	// NewCellID is the id of an inserted cell in a notebook that uses ids;
	// "" draws 8 random hex digits.
	NewCellID string
	// SourceString writes the new source as one JSON string instead of
	// an array of lines, and an inserted cell's members in the order
	// cell_type, id, source, metadata, execution_count, outputs: the cells
	// Claude Code's NotebookEdit writes.
	SourceString bool
}

// Result describes the cell an Apply changed.
type Result struct {
	// Index is the 0-based position of the cell: where it is now (Replace,
	// Insert) or where it was (Delete).
	Index int
	// ID is the cell's id, or "" in a notebook without ids.
	ID string
	// Type is the cell's type (after the edit, for Replace).
	Type string
}

var (
	// ErrNoTarget is returned when Replace or Delete names no cell.
	ErrNoTarget = errors.New("no cell given: name the cell by id or by 0-based index")
	// ErrCellTypeRequired is returned when Insert has no CellType.
	ErrCellTypeRequired = errors.New("cell type is required to insert a cell: code, markdown or raw")
	// ErrInvalidCellType is wrapped by the error for a cell type other than
	// code, markdown or raw.
	ErrInvalidCellType = errors.New("invalid cell type")
	// ErrDuplicateID is wrapped by the error for a NewCellID that another
	// cell already has.
	ErrDuplicateID = errors.New("duplicate cell id")
)

// CellNotFoundError is returned when the target cell does not exist.
type CellNotFoundError struct {
	// ID is the id looked for, or "" when the cell was named by Index.
	ID string
	// Index is the index looked for, when ID is "".
	Index int
	// Count is the number of cells in the notebook.
	Count int
	// IDs are the notebook's cell ids (at most 20), to choose from.
	IDs []string
}

// Error implements error.
func (e *CellNotFoundError) Error() string {
	if e.ID == "" {
		if e.Count == 0 {
			return fmt.Sprintf("cell index %d is out of range: the notebook has no cells", e.Index)
		}
		return fmt.Sprintf("cell index %d is out of range: the notebook has %d cells (indexes 0 to %d)", e.Index, e.Count, e.Count-1)
	}
	msg := fmt.Sprintf("cell id %q not found in the notebook's %d cells", e.ID, e.Count)
	if len(e.IDs) > 0 {
		msg += "; ids: " + strings.Join(e.IDs, ", ")
		if e.Count > len(e.IDs) {
			msg += ", …"
		}
	}
	return msg
}

// Apply makes one edit to the notebook in data and returns the new bytes.
// Every byte outside the changed cell is kept, except the separator between
// cells that an insertion or deletion adds or removes.
//
// Replace sets the cell's source and, when given, its type. Keys other than
// the ones it changes keep their order and bytes (metadata, id,
// attachments). A code cell's outputs and execution count are cleared, since
// they belong to the old source; turning a code cell into markdown or raw
// drops both keys, and turning one into code adds them (and drops
// attachments, which code cells may not have).
//
// Insert adds a cell after the target or, when the edit names no cell,
// first. The new cell has Jupyter's keys in Jupyter's (sorted) order, empty
// metadata and, when the notebook uses ids (nbformat 4.5 or later, or any
// cell has one), a fresh id.
//
// Delete removes the target cell.
//
// Sources are written as lists of lines, each ending in "\n" except the last,
// as Jupyter writes them.
func Apply(data []byte, e Edit) ([]byte, Result, error) {
	if bytes.HasPrefix(data, utf8BOM) {
		out, res, err := Apply(data[len(utf8BOM):], e)
		if err != nil {
			return nil, res, err
		}
		return append(slices.Clip(utf8BOM), out...), res, nil
	}
	d, err := locate(data)
	if err != nil {
		return nil, Result{}, err
	}
	if e.CellType != "" && e.CellType != "code" && e.CellType != "markdown" && e.CellType != "raw" {
		return nil, Result{}, fmt.Errorf("%w %q: use code, markdown or raw", ErrInvalidCellType, e.CellType)
	}
	target, err := d.target(e)
	if err != nil {
		return nil, Result{}, err
	}
	switch e.Mode {
	case Replace:
		if target < 0 {
			return nil, Result{}, ErrNoTarget
		}
		return d.replace(target, e)
	case Insert:
		return d.insert(target, e)
	case Delete:
		if target < 0 {
			return nil, Result{}, ErrNoTarget
		}
		return d.delete(target)
	}
	return nil, Result{}, fmt.Errorf("unknown edit mode %v", e.Mode)
}

// target resolves the edit's cell to an index, or -1 for none.
func (d *doc) target(e Edit) (int, error) {
	if e.CellID != "" {
		if i := slices.Index(d.ids, e.CellID); i >= 0 {
			return i, nil
		}
		var ids []string
		for _, id := range d.ids {
			if id != "" && len(ids) < 20 {
				ids = append(ids, id)
			}
		}
		return 0, &CellNotFoundError{ID: e.CellID, Count: len(d.spans), IDs: ids}
	}
	if e.Index < 0 {
		return -1, nil
	}
	if e.Index >= len(d.spans) {
		return 0, &CellNotFoundError{Index: e.Index, Count: len(d.spans)}
	}
	return e.Index, nil
}

// splice returns data with data[start:end] replaced by s.
func (d *doc) splice(start, end int, s string) []byte {
	out := make([]byte, 0, len(d.data)-(end-start)+len(s))
	out = append(out, d.data[:start]...)
	out = append(out, s...)
	return append(out, d.data[end:]...)
}

// cellIndent returns the indentation of cell i's opening brace and of its
// members.
func (d *doc) cellIndent(i int) (indent, memberIndent string) {
	indent = d.cellsKeyLine + d.style.unit
	if i >= 0 && i < len(d.spans) {
		if ind, ok := indentBefore(d.data, d.spans[i].start); ok {
			indent = ind
		}
	}
	memberIndent = indent + d.style.unit
	if i >= 0 && i < len(d.spans) && len(d.cellMembers[i]) > 0 {
		if ind, ok := indentBefore(d.data, d.cellMembers[i][0].keyStart); ok {
			memberIndent = ind
		}
	}
	return indent, memberIndent
}

// sourceLines splits source into Jupyter's list of lines.
func sourceLines(source string) []string {
	var lines []string
	for l := range strings.Lines(source) {
		lines = append(lines, l)
	}
	return lines
}

func (d *doc) replace(i int, e Edit) ([]byte, Result, error) {
	typ := e.CellType
	if typ == "" {
		typ = d.types[i]
	}
	indent, mi := d.cellIndent(i)
	var fs []field
	seen := map[string]bool{}
	for _, m := range d.cellMembers[i] {
		if seen[m.key] {
			continue // a duplicate key: the last one won when reading
		}
		seen[m.key] = true
		m, _ = lookup(d.cellMembers[i], m.key)
		raw := string(d.raw(m))
		switch m.key {
		case "cell_type":
			raw = quote(typ)
		case "source":
			raw = e.source(d, mi)
		case "execution_count":
			if typ != "code" {
				continue
			}
			raw = "null"
		case "outputs":
			if typ != "code" {
				continue
			}
			raw = "[]"
		case "attachments":
			if typ == "code" {
				continue
			}
		}
		fs = append(fs, field{m.key, raw})
	}
	add := func(key, raw string) {
		if !seen[key] {
			fs = insertSorted(fs, field{key, raw})
		}
	}
	add("cell_type", quote(typ))
	add("source", e.source(d, mi))
	if typ == "code" {
		add("execution_count", "null")
		add("outputs", "[]")
	}
	cell := d.style.object(indent, mi, fs)
	sp := d.spans[i]
	return d.splice(sp.start, sp.end, cell), Result{Index: i, ID: d.ids[i], Type: typ}, nil
}

// insertSorted inserts f before the first field whose key sorts after it,
// which keeps Jupyter's sorted key order.
func insertSorted(fs []field, f field) []field {
	i := slices.IndexFunc(fs, func(g field) bool { return g.key > f.key })
	if i < 0 {
		return append(fs, f)
	}
	return slices.Insert(fs, i, f)
}

func (d *doc) insert(after int, e Edit) ([]byte, Result, error) {
	if e.CellType == "" {
		return nil, Result{}, ErrCellTypeRequired
	}
	id := ""
	if d.usesIDs {
		id = e.NewCellID
		if id != "" && slices.Contains(d.ids, id) {
			return nil, Result{}, fmt.Errorf("%w %q: another cell has it; choose another id or leave it empty", ErrDuplicateID, id)
		}
		for id == "" || slices.Contains(d.ids, id) {
			id = newID()
		}
	}
	ref := max(after, 0) // the cell whose layout the new one copies
	indent, mi := d.cellIndent(ref)
	fs := []field{{"cell_type", quote(e.CellType)}}
	if e.SourceString {
		if id != "" {
			fs = append(fs, field{"id", quote(id)})
		}
		fs = append(fs, field{"source", e.source(d, mi)}, field{"metadata", "{}"})
		if e.CellType == "code" {
			fs = append(fs, field{"execution_count", "null"}, field{"outputs", "[]"})
		}
		return d.insertCell(after, indent, d.style.object(indent, mi, fs), Result{Index: after + 1, ID: id, Type: e.CellType})
	}
	if e.CellType == "code" {
		fs = append(fs, field{"execution_count", "null"})
	}
	if id != "" {
		fs = append(fs, field{"id", quote(id)})
	}
	fs = append(fs, field{"metadata", "{}"})
	if e.CellType == "code" {
		fs = append(fs, field{"outputs", "[]"})
	}
	fs = append(fs, field{"source", d.style.stringArray(mi, sourceLines(e.Source))})
	return d.insertCell(after, indent, d.style.object(indent, mi, fs), Result{Index: after + 1, ID: id, Type: e.CellType})
}

// source is the JSON of the edit's new source, indented by mi.
func (e Edit) source(d *doc, mi string) string {
	if e.SourceString {
		return quote(e.Source)
	}
	return d.style.stringArray(mi, sourceLines(e.Source))
}

// insertCell splices the JSON of a new cell in after cell index after (or
// first, when after is negative).
func (d *doc) insertCell(after int, indent, cell string, res Result) ([]byte, Result, error) {
	n := len(d.spans)
	if n == 0 {
		arr := "[" + cell + "]"
		if d.style.multiline {
			arr = "[" + d.style.newline + indent + cell + d.style.newline + d.cellsKeyLine + "]"
		}
		return d.splice(d.cells.val.start, d.cells.val.end, arr), res, nil
	}
	sep := ","
	switch {
	case n > 1:
		sep = string(d.data[d.spans[0].end:d.spans[1].start])
	case d.style.multiline:
		sep = "," + d.style.newline + indent
	default:
		sep = "," + strings.TrimPrefix(d.style.comma, ",")
	}
	if after < 0 {
		at := d.spans[0].start
		return d.splice(at, at, cell+sep), res, nil
	}
	at := d.spans[after].end
	return d.splice(at, at, sep+cell), res, nil
}

func (d *doc) delete(i int) ([]byte, Result, error) {
	res := Result{Index: i, ID: d.ids[i], Type: d.types[i]}
	switch {
	case len(d.spans) == 1:
		return d.splice(d.cells.val.start, d.cells.val.end, "[]"), res, nil
	case i > 0:
		return d.splice(d.spans[i-1].end, d.spans[i].end, ""), res, nil
	default:
		return d.splice(d.spans[0].start, d.spans[1].start, ""), res, nil
	}
}

// newID returns 8 random hex digits, like Jupyter's cell ids.
func newID() string {
	var b [4]byte
	_, _ = rand.Read(b[:]) // crypto/rand.Read never fails
	return hex.EncodeToString(b[:])
}
