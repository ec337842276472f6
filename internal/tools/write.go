package tools

import (
	"context"
	_ "embed"
	"fmt"
	"strings"

	"github.com/hands-dev/hands/internal/textedit"
	"github.com/hands-dev/hands/tool"
)

//go:embed write.md
var writeDescription string

// WriteInput is the input of the write tool.
type WriteInput struct {
	Path    string `json:"path" jsonschema:"the file to write: absolute, or relative to the working directory; missing parent directories are created"`
	Content string `json:"content" jsonschema:"the whole new content of the file"`
	resolved
	// prior is the existing file as validation saw it.
	prior *prior
}

// WriteOutput is what the write tool returns.
type WriteOutput struct {
	Path string `json:"path"`
	// Action is "created" for a new file, "overwrote" for an existing one.
	Action string `json:"action" jsonschema:"created or overwrote"`
	// Bytes is the size of the file written.
	Bytes int `json:"bytes"`
	// Lines is the number of lines of the content.
	Lines int `json:"lines"`
	// Encoding names the encoding the file was written in when it is not
	// plain UTF-8 with LF line endings: an overwritten file keeps its own.
	Encoding string `json:"encoding,omitempty"`
	// Note is an extra remark, e.g. why the encoding changed.
	Note string `json:"note,omitempty"`
}

// Write returns the write tool (native name create_file).
func Write() tool.Tool {
	return tool.New(tool.Spec[WriteInput]{
		Name:        "write",
		Title:       "Write a file",
		Description: writeDescription,
		Destructive: true,
		Resolve: func(_ context.Context, env *tool.Env, in WriteInput) (WriteInput, error) {
			err := in.resolve(env, in.Path, true)
			return in, err
		},
		Validate: func(_ context.Context, env *tool.Env, in WriteInput) (WriteInput, error) {
			st := stateOf(env)
			if limit := st.Limits.MaxFileSize; int64(len(in.Content)) > limit {
				return in, toolErr(tool.FileTooLarge, "%s is %d bytes, over the %d-byte limit; write a smaller file, or build it in parts with edits", param("content"), len(in.Content), limit).With("path", in.Path)
			}
			// Read before write: an existing file must have been read and
			// be unchanged since.
			fi, terr := statTarget(st, in.at, "write")
			if terr != nil {
				return in, terr
			}
			if fi == nil {
				return in, nil
			}
			old, terr := checkFresh(st, in.at, fi, nil, "overwrite")
			if terr != nil {
				return in, terr
			}
			in.prior = &prior{fi: fi, data: old}
			return in, nil
		},
	}, runWrite)
}

func runWrite(_ context.Context, env *tool.Env, in WriteInput) (*WriteOutput, error) {
	st := stateOf(env)
	p := in.at
	fi, terr := statTarget(st, p, "write")
	if terr != nil {
		return nil, terr
	}
	data := []byte(in.Content)
	out := &WriteOutput{Path: p.Abs, Action: "created", Lines: len(splitLines(in.Content))}
	if fi != nil {
		out.Action = "overwrote"
		var old []byte
		if in.prior != nil && sameFile(in.prior.fi, fi) {
			old = in.prior.data
		} else if old, terr = checkFresh(st, p, fi, nil, "overwrite"); terr != nil {
			// The file appeared or changed after validation.
			return nil, terr
		}
		if old == nil && st.Behavior.WriteWithoutRead && fi.Size() <= st.Limits.MaxFileSize {
			// Not read, yet the file keeps its encoding all the same.
			old, _ = readFile(st, p)
		}
		if old != nil {
			data, out.Encoding, out.Note = keepEncoding(old, in.Content)
		}
	}
	if int64(len(data)) > st.Limits.MaxFileSize {
		return nil, toolErr(tool.FileTooLarge, "%s is %d bytes once encoded, over the %d-byte limit; write a smaller file", param("content"), len(data), st.Limits.MaxFileSize).With("path", p.Abs)
	}
	created, terr := commit(st, p, data)
	if terr != nil {
		return nil, terr
	}
	if created {
		out.Action = "created"
	}
	out.Bytes = len(data)
	return out, nil
}

// keepEncoding encodes content the way the file whose bytes are old is
// encoded: its character encoding and byte order mark and, unless content
// brings its own carriage returns, its line endings. A binary old file, or
// one in an encoding that cannot hold content, gets plain UTF-8.
func keepEncoding(old []byte, content string) (data []byte, label, note string) {
	_, enc, err := textedit.Decode(old)
	if err != nil {
		return []byte(content), "", ""
	}
	if strings.Contains(content, "\r") {
		// The content says how its lines end.
		enc.CRLF, enc.Mixed = false, false
	}
	data, err = textedit.Encode(content, enc)
	if err != nil {
		was := enc.String()
		enc.Kind, enc.BOM = textedit.UTF8, false
		if data, err = textedit.Encode(content, enc); err != nil {
			return []byte(content), "", ""
		}
		note = fmt.Sprintf("the file was %s, which cannot hold the new content; it is now UTF-8", was)
	}
	return data, encodingLabel(enc), note
}

// Content renders the output as the native profile shows it.
func (o *WriteOutput) Content() []tool.Content {
	verb := "Created"
	if o.Action == "overwrote" {
		verb = "Overwrote"
	}
	s := fmt.Sprintf("%s %s (%s, %s", verb, o.Path, plural(o.Bytes, "byte"), plural(o.Lines, "line"))
	if o.Encoding != "" {
		s += ", " + o.Encoding
	}
	s += ")."
	if o.Note != "" {
		s += "\n(" + o.Note + ")"
	}
	return []tool.Content{tool.Text(s)}
}

// plural renders n and a noun, adding an s unless n is 1.
func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}
