package search

import (
	"bufio"
	"io"
	"strconv"
)

// RenderOptions tunes Render. The zero value prints like ripgrep with
// --no-heading and no line numbers.
type RenderOptions struct {
	// Mode must be the Mode of the search.
	Mode Mode
	// LineNumbers prefixes lines with their number (-n).
	LineNumbers bool
	// NoFilename leaves out the path prefix (-I), as for a single file.
	NoFilename bool
	// Context prints "--" between non-contiguous groups of lines, as
	// ripgrep does when context lines were asked for.
	Context bool
	// Path maps a result path to the printed one (for example relative
	// to the working directory); nil prints paths as they are.
	Path func(string) string
}

// Render writes results the way ripgrep prints them: "path:line:text" for
// a matching line, "path-line-text" for a context line, "--" between
// groups, "path:count" in Count mode, one path a line in FilesWithMatches
// mode, and ripgrep's messages for files cut short at a NUL byte.
func Render(w io.Writer, files []File, opts RenderOptions) error {
	bw := bufio.NewWriterSize(w, 64<<10)
	var num []byte
	first := true
	for i := range files {
		f := &files[i]
		path := f.Path
		if opts.Path != nil {
			path = opts.Path(path)
		}
		switch opts.Mode {
		case FilesWithMatches:
			bw.WriteString(path)
			bw.WriteByte('\n')
			continue
		case Count:
			if !opts.NoFilename {
				bw.WriteString(path)
				bw.WriteByte(':')
			}
			num = strconv.AppendInt(num[:0], int64(f.Count), 10)
			bw.Write(num)
			bw.WriteByte('\n')
			continue
		}
		prev := -1
		for _, l := range f.Lines {
			if opts.Context && (prev >= 0 && l.Number != prev+1 || prev < 0 && !first) {
				bw.WriteString("--\n")
			}
			first = false
			prev = l.Number
			sep := byte('-')
			if l.Match {
				sep = ':'
			}
			if !opts.NoFilename {
				bw.WriteString(path)
				bw.WriteByte(sep)
			}
			if opts.LineNumbers {
				num = strconv.AppendInt(num[:0], int64(l.Number), 10)
				bw.Write(num)
				bw.WriteByte(sep)
			}
			bw.WriteString(l.Text)
			bw.WriteByte('\n')
		}
		if f.Binary != NotBinary {
			if !opts.NoFilename {
				bw.WriteString(path)
				bw.WriteString(": ")
			}
			if f.Binary == BinaryStopped {
				bw.WriteString("WARNING: stopped searching binary file after match")
			} else {
				bw.WriteString("binary file matches")
			}
			bw.WriteString(` (found "\0" byte around offset `)
			bw.WriteString(strconv.FormatInt(f.BinaryOffset, 10))
			bw.WriteString(")\n")
		}
	}
	return bw.Flush()
}
