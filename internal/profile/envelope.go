package profile

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"github.com/hands-dev/hands/internal/tools"
	"github.com/hands-dev/hands/tool"
)

// envelope is seed 002's surface: five tools whose every result is the
// JSON envelope {"success":true,"data":{…}} with the data fields the seed
// lists, or {"success":false,"error":"…"}. The text content is exactly that
// JSON; the structured content is the same object.
//
// One addition: a failure's structured content also carries "code" (the
// [CODE] of seed 000), since every profile puts the code in structured
// content so that a client can branch on it (DESIGN.md, Profiles). The
// text the model reads stays exactly the seed's envelope, without it.
//
// Decisions: a command that runs and exits non-zero is a success (the
// seed says so); file_write does not need a read first (the seed tracks no
// reads); file_read reads files only; output is cut inside the envelope, so
// that the text stays valid JSON.
func envelope(lim tools.Limits) *Profile {
	return &Profile{
		Name:     "envelope",
		Behavior: tools.Behavior{WriteWithoutRead: true, ReadFilesOnly: true},
		Render:   renderEnvelope,
		Tools: []Entry{
			{Core: "glob", Name: "glob", Description: desc("envelope/glob.md"), Params: []Param{
				{Name: "pattern", Description: "the glob to match, e.g. **/*.c or src/*.{h,c}"},
				{Name: "path", Description: "the directory to search; default the working directory"},
			}, OutputSchema: envelopeSchema("count"), MaxResultChars: envelopeBound},
			{Core: "read", Name: "file_read", Description: desc("envelope/file_read.md"), Params: []Param{
				{Name: "path", Description: "the file to read: absolute, or relative to the working directory"},
				{Name: "offset", Description: "the 1-based line number to start reading from; default 1"},
				{Name: "limit", Description: "how many lines to read; default {{.ReadLines}}"},
			}, OutputSchema: envelopeSchema(""), MaxResultChars: envelopeBound},
			{Core: "grep", Name: "grep", Description: desc("envelope/grep.md"), Params: []Param{
				{Name: "pattern", Description: "the regular expression to search for (RE2 syntax)"},
				{Name: "path", Description: "file or directory to search; default the working directory"},
				{Name: "glob", Description: "glob filter for files, e.g. *.c or *.{h,c}"},
			}, Fixed: map[string]any{"output_mode": "content", "-n": true}, OutputSchema: envelopeSchema("count"), MaxResultChars: envelopeBound},
			{Core: "write", Name: "file_write", Description: desc("envelope/file_write.md"), Params: []Param{
				{Name: "path", Description: "the file to write: absolute, or relative to the working directory; missing parent directories are created"},
				{Name: "content", Description: "the whole new content of the file"},
			}, OutputSchema: envelopeSchema("bytes"), MaxResultChars: envelopeBound},
			{Core: "bash", Name: "bash", Description: desc("envelope/bash.md"), Params: []Param{
				{Name: "command", Description: "the shell command to run"},
				{Name: "timeout", Description: "timeout in milliseconds; default {{.BashTimeoutMS}}, at most {{.BashMaxTimeoutMS}}"},
			}, OutputSchema: envelopeSchema("exit_code"), MaxResultChars: envelopeBound},
		},
	}
}

// envelopeBound is the bound on an envelope's text: the output inside it
// is cut to the core's bound, so that the executor never cuts the JSON.
const envelopeBound = 1 << 20

// envelopeSchema is the output schema of a tool whose data has output and,
// when extra is not "", one integer field.
func envelopeSchema(extra string) json.RawMessage {
	props := `"output":{"type":"string"}`
	req := `"output"`
	if extra != "" {
		props += `,"` + extra + `":{"type":"integer"}`
		req += `,"` + extra + `"`
	}
	return json.RawMessage(`{"type":"object","required":["success"],"properties":{` +
		`"success":{"type":"boolean"},` +
		`"data":{"type":"object","required":[` + req + `],"properties":{` + props + `},"additionalProperties":false},` +
		`"error":{"type":"string"},` +
		`"code":{"type":"string","description":"the error code of a failure, e.g. PATH_NOT_FOUND (structured content only)"}` +
		`},"additionalProperties":false}`)
}

// The envelopes, with the seed's key order.
type (
	envelopeOK struct {
		Success bool `json:"success"`
		Data    any  `json:"data"`
	}
	envelopeErr struct {
		Success bool      `json:"success"`
		Error   string    `json:"error"`
		Code    tool.Code `json:"code,omitzero"`
	}
	outputData struct {
		Output string `json:"output"`
	}
	countData struct {
		Output string `json:"output"`
		Count  int    `json:"count"`
	}
	bytesData struct {
		Output string `json:"output"`
		Bytes  int    `json:"bytes"`
	}
	exitData struct {
		Output   string `json:"output"`
		ExitCode int    `json:"exit_code"`
	}
)

func renderEnvelope(r *Rendering) {
	if e := r.Err(); e != nil {
		msg := envelopeError(r, e)
		r.Res.Structured = envelopeErr{Error: msg, Code: e.Code}
		r.Text(marshal(envelopeErr{Error: msg}))
		return
	}
	out := func(s string) string { return cut(s, r.Limit, "\n\n[output cut: showing %d of %d characters]") }
	var data any
	var image []tool.Content
	switch o := r.Out.(type) {
	case *tools.GlobOutput:
		paths := make([]string, len(o.Paths))
		for i, p := range o.Paths {
			paths[i] = r.Rel(p)
		}
		s := strings.Join(paths, "\n")
		if more := o.Total - len(o.Paths); more > 0 {
			s += fmt.Sprintf("\n(%d more not shown: narrow the pattern or the path)", more)
		}
		data = countData{Output: out(s), Count: o.Total}
	case *tools.ReadOutput:
		s := readText(o)
		if n := o.Notes(); n != "" {
			s += "\n\n" + n
		}
		if o.Kind == "image" {
			s = fmt.Sprintf("(%s image, %d bytes, shown as an image)", o.MIMEType, o.Size)
			image = []tool.Content{tool.Image(o.Image(), o.MIMEType)}
		}
		data = outputData{Output: out(s)}
	case *tools.GrepOutput:
		var lines []string
		for _, f := range o.Files {
			for _, l := range f.Lines {
				if l.Match {
					lines = append(lines, r.Rel(f.Path)+":"+strconv.Itoa(l.Number)+": "+l.Text)
				}
			}
		}
		s := strings.Join(lines, "\n")
		if o.More {
			s += "\n(more matches not shown: narrow the search with path or glob)"
		}
		data = countData{Output: out(s), Count: o.NumMatches}
	case *tools.WriteOutput:
		name := r.Rel(o.Path)
		if in, ok := r.In.(tools.WriteInput); ok {
			name = in.Path
		}
		data = bytesData{Output: fmt.Sprintf("Wrote %d bytes to %s", o.Bytes, name), Bytes: o.Bytes}
	case *tools.BashOutput:
		s := o.Output
		if o.TimedOut {
			s += fmt.Sprintf("\n[timed out after %d ms]", o.TimeoutMS)
		}
		if o.CwdNote != "" {
			s += "\n[" + o.CwdNote + "]"
		}
		data = exitData{Output: out(s), ExitCode: o.ExitCode}
	default:
		return
	}
	env := envelopeOK{Success: true, Data: data}
	r.Res.Structured = env
	r.Text(marshal(env))
	r.Res.Content = append(r.Res.Content, image...)
}

// envelopeError is the seed's error message where its examples give one,
// the core's message otherwise.
func envelopeError(r *Rendering, e *tool.Error) string {
	switch e.Code {
	case tool.PathNotFound:
		if p := r.detail("path"); p != "" {
			return "File not found: " + r.Rel(p)
		}
	case tool.AccessDenied:
		if p := r.detail("path"); p != "" {
			return "Permission denied: " + r.Rel(p)
		}
	case tool.GlobInvalidPattern:
		if p := r.detail("pattern"); p != "" {
			return "Invalid glob pattern: " + p
		}
	case tool.BashStartFailed, tool.BashEmptyCommand:
		return "Command execution failed: " + e.Message
	}
	return e.Message
}
