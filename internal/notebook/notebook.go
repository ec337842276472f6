// Package notebook reads and edits Jupyter notebooks (.ipynb, nbformat 4).
//
// Parse and Render give the read tool a plain-text view of the cells and
// their outputs. Apply replaces, inserts or deletes one cell and promises to
// leave every other byte of the file as it was: the order of keys, the
// indentation, the other cells and their outputs. It finds the cells with a
// small scanner over the raw JSON and writes only the changed cell, laid out
// like its neighbours (Jupyter's one-space indentation, or whatever the file
// uses), with its source as a list of lines the way Jupyter writes it.
//
// The package does not run notebooks, validate them against the nbformat
// schema, or touch files.
package notebook

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// Notebook is a parsed notebook, for reading.
type Notebook struct {
	// Format and FormatMinor are nbformat and nbformat_minor (e.g. 4 and 5).
	Format, FormatMinor int
	// Language is the kernel's language from the metadata, or "".
	Language string
	// Cells are the cells in order.
	Cells []Cell
}

// Cell is one cell of a notebook.
type Cell struct {
	// Index is the 0-based position of the cell.
	Index int
	// ID is the cell's id (nbformat 4.5 and later), or "".
	ID string
	// Type is "code", "markdown" or "raw".
	Type string
	// Source is the cell's text.
	Source string
	// ExecutionCount is the code cell's execution count, or 0 when it has
	// none.
	ExecutionCount int
	// Outputs are the code cell's outputs.
	Outputs []Output
}

// Output is one output of a code cell, reduced to text.
type Output struct {
	// Type is the output_type: "stream", "execute_result", "display_data"
	// or "error".
	Type string
	// Text is what the output shows, as text: the stream's text, the
	// text/plain representation, or the error's traceback (headed by its
	// name and value when the traceback lacks them), with ANSI escape
	// sequences removed; an image or other rich output
	// without text is shown as a marker such as "[image/png output]".
	Text string
}

// utf8BOM is a UTF-8 byte order mark, which some editors put before the
// JSON; it is skipped when reading and kept when writing.
var utf8BOM = []byte{0xEF, 0xBB, 0xBF}

// ErrNotNotebook is returned for data that is not an nbformat 4 notebook.
var ErrNotNotebook = errors.New("not a Jupyter notebook")

// doc is a notebook located in its bytes.
type doc struct {
	data         []byte
	root         []member
	cells        member // the "cells" member of the root
	spans        []span // each cell's bytes
	format       int
	formatMinor  int
	style        style
	cellMembers  [][]member
	ids          []string
	types        []string
	usesIDs      bool
	cellsKeyLine string // indentation of the line holding "cells"
}

// locate finds the cells of a notebook in data.
func locate(data []byte) (*doc, error) {
	if !json.Valid(data) {
		var v any
		err := json.Unmarshal(data, &v)
		return nil, fmt.Errorf("%w: invalid JSON: %v", ErrNotNotebook, err)
	}
	sc := scanner{data}
	start := sc.ws(0)
	end, err := sc.skipValue(start)
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrNotNotebook, err)
	}
	if data[start] != '{' {
		return nil, fmt.Errorf("%w: the top level is not an object", ErrNotNotebook)
	}
	root, err := sc.object(span{start, end})
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrNotNotebook, err)
	}
	d := &doc{data: data, root: root, style: detectStyle(data, root)}
	if m, ok := lookup(root, "nbformat"); ok {
		d.format, _ = strconv.Atoi(string(data[m.val.start:m.val.end]))
	}
	if m, ok := lookup(root, "nbformat_minor"); ok {
		d.formatMinor, _ = strconv.Atoi(string(data[m.val.start:m.val.end]))
	}
	cells, ok := lookup(root, "cells")
	if !ok {
		if d.format > 0 && d.format < 4 {
			return nil, fmt.Errorf("%w: nbformat %d is not supported; only nbformat 4 is (convert it with jupyter nbconvert --to notebook)", ErrNotNotebook, d.format)
		}
		return nil, fmt.Errorf("%w: no \"cells\" array", ErrNotNotebook)
	}
	d.cells = cells
	d.cellsKeyLine, _ = indentBefore(data, cells.keyStart)
	if d.spans, err = sc.array(cells.val); err != nil {
		return nil, fmt.Errorf("%w: \"cells\" is not an array", ErrNotNotebook)
	}
	d.usesIDs = d.format > 4 || d.format == 4 && d.formatMinor >= 5
	for i, sp := range d.spans {
		ms, err := sc.object(sp)
		if err != nil {
			return nil, fmt.Errorf("%w: cell %d is not an object", ErrNotNotebook, i)
		}
		d.cellMembers = append(d.cellMembers, ms)
		id, typ := "", ""
		if m, ok := lookup(ms, "id"); ok {
			_ = json.Unmarshal(data[m.val.start:m.val.end], &id)
			d.usesIDs = true
		}
		if m, ok := lookup(ms, "cell_type"); ok {
			_ = json.Unmarshal(data[m.val.start:m.val.end], &typ)
		}
		d.ids = append(d.ids, id)
		d.types = append(d.types, typ)
	}
	return d, nil
}

// raw returns the bytes of a member's value.
func (d *doc) raw(m member) []byte { return d.data[m.val.start:m.val.end] }

// Parse reads a notebook. It fails with an error wrapping ErrNotNotebook
// for data that is not JSON or has no "cells" array of objects.
func Parse(data []byte) (*Notebook, error) {
	d, err := locate(bytes.TrimPrefix(data, utf8BOM))
	if err != nil {
		return nil, err
	}
	nb := &Notebook{Format: d.format, FormatMinor: d.formatMinor}
	if m, ok := lookup(d.root, "metadata"); ok {
		var meta struct {
			Kernelspec   struct{ Language string } `json:"kernelspec"`
			LanguageInfo struct{ Name string }     `json:"language_info"`
		}
		if json.Unmarshal(d.raw(m), &meta) == nil {
			nb.Language = meta.Kernelspec.Language
			if nb.Language == "" {
				nb.Language = meta.LanguageInfo.Name
			}
		}
	}
	for i, ms := range d.cellMembers {
		c := Cell{Index: i, ID: d.ids[i], Type: d.types[i]}
		if m, ok := lookup(ms, "source"); ok {
			c.Source = multiline(d.raw(m))
		}
		if m, ok := lookup(ms, "execution_count"); ok {
			_ = json.Unmarshal(d.raw(m), &c.ExecutionCount)
		}
		if m, ok := lookup(ms, "outputs"); ok {
			var outs []json.RawMessage
			_ = json.Unmarshal(d.raw(m), &outs)
			for _, o := range outs {
				c.Outputs = append(c.Outputs, output(o))
			}
		}
		nb.Cells = append(nb.Cells, c)
	}
	return nb, nil
}

// multiline decodes nbformat's multiline string: a string or a list of
// strings to concatenate. Anything else is "".
func multiline(raw []byte) string {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	var parts []string
	if json.Unmarshal(raw, &parts) == nil {
		return strings.Join(parts, "")
	}
	return ""
}

// output reduces one output to text.
func output(raw json.RawMessage) Output {
	var o struct {
		OutputType string                     `json:"output_type"`
		Text       json.RawMessage            `json:"text"`
		Data       map[string]json.RawMessage `json:"data"`
		Ename      string                     `json:"ename"`
		Evalue     string                     `json:"evalue"`
		Traceback  []string                   `json:"traceback"`
	}
	if err := json.Unmarshal(raw, &o); err != nil {
		return Output{Type: "unknown", Text: "[unreadable output]"}
	}
	out := Output{Type: o.OutputType}
	var text string
	switch o.OutputType {
	case "stream":
		text = multiline(o.Text)
	case "execute_result", "display_data":
		var parts []string
		if t, ok := o.Data["text/plain"]; ok {
			parts = append(parts, strings.TrimSuffix(multiline(t), "\n"))
		}
		mimes := make([]string, 0, len(o.Data))
		for k := range o.Data {
			mimes = append(mimes, k)
		}
		slices.Sort(mimes)
		for _, k := range mimes {
			if strings.HasPrefix(k, "image/") {
				parts = append(parts, "["+k+" output]")
			}
		}
		if len(parts) == 0 && len(mimes) > 0 {
			parts = append(parts, "["+mimes[0]+" output]")
		}
		text = strings.Join(parts, "\n")
	case "error":
		// IPython's traceback ends with "ename: evalue"; other kernels'
		// may not have it at all.
		text = StripANSI(strings.Join(o.Traceback, "\n"))
		if head := o.Ename + ": " + o.Evalue; !strings.Contains(text, o.Ename) {
			text = strings.TrimSuffix(head+"\n"+text, "\n")
		}
	default:
		text = "[" + o.OutputType + " output]"
	}
	out.Text = StripANSI(text)
	return out
}

// StripANSI removes ANSI escape sequences (colours, cursor movement, OSC
// hyperlinks) from s.
func StripANSI(s string) string {
	if !strings.ContainsRune(s, 0x1b) {
		return s
	}
	var sb strings.Builder
	sb.Grow(len(s))
	for i := 0; i < len(s); i++ {
		if s[i] != 0x1b {
			sb.WriteByte(s[i])
			continue
		}
		if i+1 >= len(s) {
			break
		}
		switch s[i+1] {
		case '[': // CSI: parameters and intermediates, then a final byte
			j := i + 2
			for j < len(s) && (s[j] < 0x40 || s[j] > 0x7e) {
				j++
			}
			i = j
		case ']': // OSC: up to BEL or ESC \
			j := i + 2
			for j < len(s) && s[j] != 0x07 && !(s[j] == 0x1b && j+1 < len(s) && s[j+1] == '\\') {
				j++
			}
			if j < len(s) && s[j] == 0x1b {
				j++
			}
			i = j
		default: // a two-byte escape
			i++
		}
	}
	return sb.String()
}

// Render returns the notebook as text for reading: each cell as
// `<cell index="0" id="…" type="code">` (with execution_count for a code
// cell that has one), its source, `</cell>`, then for a cell with outputs
// an `<outputs cell="0">` block with each output's text.
func (nb *Notebook) Render() string {
	var sb strings.Builder
	for i, c := range nb.Cells {
		if i > 0 {
			sb.WriteByte('\n')
		}
		sb.WriteString(c.Render())
	}
	return sb.String()
}

// Render returns the cell as Notebook.Render shows it.
func (c Cell) Render() string {
	var sb strings.Builder
	fmt.Fprintf(&sb, "<cell index=\"%d\"", c.Index)
	if c.ID != "" {
		fmt.Fprintf(&sb, " id=%q", c.ID)
	}
	fmt.Fprintf(&sb, " type=%q", c.Type)
	if c.ExecutionCount > 0 {
		fmt.Fprintf(&sb, " execution_count=\"%d\"", c.ExecutionCount)
	}
	sb.WriteString(">\n")
	writeBlock(&sb, c.Source)
	sb.WriteString("</cell>\n")
	if len(c.Outputs) > 0 {
		fmt.Fprintf(&sb, "<outputs cell=\"%d\">\n", c.Index)
		for _, o := range c.Outputs {
			writeBlock(&sb, o.Text)
		}
		sb.WriteString("</outputs>\n")
	}
	return sb.String()
}

func writeBlock(sb *strings.Builder, s string) {
	if s == "" {
		return
	}
	sb.WriteString(s)
	if !strings.HasSuffix(s, "\n") {
		sb.WriteByte('\n')
	}
}

// Render parses data and renders it; see Notebook.Render.
func Render(data []byte) (string, error) {
	nb, err := Parse(data)
	if err != nil {
		return "", err
	}
	return nb.Render(), nil
}
