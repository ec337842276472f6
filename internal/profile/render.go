package profile

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/hands-dev/hands/internal/tools"
)

// This file holds what several profiles' renderers share.

// readText returns the lines of a read as the file holds them: joined with
// the file's line ending, with its final line break when the window reaches
// the end of the file.
func readText(o *tools.ReadOutput) string {
	eol := "\n"
	if strings.HasSuffix(o.Encoding, "CRLF") {
		eol = "\r\n"
	}
	s := strings.Join(o.Lines, eol)
	if o.FinalNewline && len(o.Lines) > 0 {
		s += eol
	}
	return s
}

// rgLines renders grep results as ripgrep prints them with --no-heading
// and line numbers: "path:line:text" for matches, "path-line-text" for
// context lines, "--" between groups when context was asked for. At most
// maxCount matching lines of each file are shown (ripgrep's --max-count),
// each followed by its trailing context; 0 shows all.
func rgLines(files []tools.GrepFile, context bool, after, maxCount int) []string {
	var out []string
	first := true
	for _, f := range files {
		prev, matches, trailing := -1, 0, -1
		for _, l := range f.Lines {
			if maxCount > 0 && matches >= maxCount {
				// Past the last match shown: only its trailing context.
				if l.Match || trailing >= after || l.Number != prev+1 {
					break
				}
				trailing++
			}
			if context && (prev >= 0 && l.Number != prev+1 || prev < 0 && !first) {
				out = append(out, "--")
			}
			first = false
			prev = l.Number
			sep := "-"
			if l.Match {
				sep = ":"
				matches++
				if maxCount > 0 && matches == maxCount {
					trailing = 0
				}
			}
			out = append(out, f.Path+sep+strconv.Itoa(l.Number)+sep+l.Text)
		}
	}
	return out
}

// cut shortens s to limit characters, adding note (a format given the
// shown and total counts; "" for none) when it does.
func cut(s string, limit int, note string) string {
	total := utf8.RuneCountInString(s)
	if limit <= 0 || total <= limit {
		return s
	}
	i := 0
	for j := range s {
		if i == limit {
			if note == "" {
				return s[:j]
			}
			return s[:j] + fmt.Sprintf(note, limit, total)
		}
		i++
	}
	return s
}

// marshal writes v as compact JSON without HTML escaping, as a document's
// example shows JSON.
func marshal(v any) string {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return fmt.Sprintf(`{"success":false,"error":%q}`, err.Error())
	}
	return strings.TrimSuffix(b.String(), "\n")
}

// plural renders n and a noun, adding an s unless n is 1.
func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}
