package profile

import (
	"fmt"
	"strings"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/hands-dev/hands/internal/tools"
)

// Claude Code 2.1.7 keeps a tool result longer than the tool's bound
// (maxResultSizeChars: Grep 20,000, Bash 30,000, the others 100,000
// characters, counted as JavaScript counts them, in UTF-16 units) in a
// file and shows the model a <persisted-output> note instead: the size,
// the file, and a preview of the first 2,000 characters cut back to the
// last line break when one falls in the second half. Claude Code's file
// is under ~/.claude/projects; Hands's is in the session's results
// directory, which only the server writes.
const (
	claudeBoundGrep    = 20000
	claudeBoundDefault = 100000
	claudePreviewChars = 2000
)

// claudeReadReminder is what Claude Code 2.1.7's Read appends to the
// lines of a file (its Se8).
const claudeReadReminder = "\n\n<system-reminder>\nWhenever you read a file, you should consider whether it would be considered malware. You CAN and SHOULD provide analysis of malware, what it is doing. But you MUST refuse to improve or augment the code. You can still analyze existing code, write reports, or answer questions about the code behavior.\n</system-reminder>\n"

// claudeBound is the bound of the claude tool over core tool core, past
// which its result is persisted; 0 for Bash, which persists its own
// output (claudeBash).
func claudeBound(core string) int {
	switch core {
	case "grep":
		return claudeBoundGrep
	case "bash":
		return 0
	}
	return claudeBoundDefault
}

// claudePersistLarge replaces a successful text result over the tool's
// bound by Claude Code's <persisted-output> note, the whole text saved
// through r.Save. Without Save, or when saving fails, the result stays as
// it is (the executor's own bound then applies).
func claudePersistLarge(r *Rendering) {
	bound := claudeBound(r.Entry.Core)
	if r.Save == nil || bound == 0 || r.Res.IsError || len(r.Res.Content) != 1 || r.Res.Content[0].Type != "text" {
		return
	}
	text := r.Res.Content[0].Text
	if o, ok := r.Out.(*tools.ReadOutput); ok && o.Kind == "text" && len(o.Lines) > 0 {
		// Claude Code's Read ends a file's lines with this reminder
		// before it bounds the result, so the reminder counts and is
		// saved too. (Elsewhere the reminder is left to the host.)
		text += claudeReadReminder
	}
	if len(text) <= bound { // bytes ≥ UTF-16 units: under the bound either way
		return
	}
	size := utf16Len(text)
	if size <= bound {
		return
	}
	path, err := r.Save(r.Res.CallID, text)
	if err != nil {
		return
	}
	r.Text(claudePersisted(int64(size), path, text))
}

// claudePersisted is Claude Code's note for output too large to show: its
// size, the file that holds all of it, and a preview of its first 2,000
// characters, cut back to the last line break when that is past the
// first 1,000, then "..." when the preview is not the whole.
func claudePersisted(size int64, path, text string) string {
	preview, more := claudePreview(text)
	var b strings.Builder
	b.WriteString("<persisted-output>\n")
	fmt.Fprintf(&b, "Output too large (%s). Full output saved to: %s\n\n", claudeSize(size), path)
	fmt.Fprintf(&b, "Preview (first %s):\n", claudeSize(claudePreviewChars))
	b.WriteString(preview)
	if more {
		b.WriteString("\n...\n")
	} else {
		b.WriteString("\n")
	}
	b.WriteString("</persisted-output>")
	return b.String()
}

// claudePreview is the start of text Claude Code previews (its H85): the
// whole when it fits claudePreviewChars UTF-16 units; otherwise those
// units cut back to their last newline if it lies past the half.
func claudePreview(text string) (string, bool) {
	// More than claudePreviewChars runes are more units than that too.
	units := utf16.Encode([]rune(cutRunes(text, claudePreviewChars+1)))
	if len(units) <= claudePreviewChars {
		return text, false
	}
	head := units[:claudePreviewChars]
	end := len(head)
	for i := len(head) - 1; i >= 0; i-- {
		if head[i] == '\n' {
			if i > claudePreviewChars/2 {
				end = i
			}
			break
		}
	}
	return string(utf16.Decode(head[:end])), true
}

// cutRunes returns at most the first n runes of s.
func cutRunes(s string, n int) string {
	for i := range s {
		if n == 0 {
			return s[:i]
		}
		n--
	}
	return s
}

// utf16Len is the length of s as JavaScript counts it.
func utf16Len(s string) int {
	n := 0
	for _, r := range s {
		if r == utf8.RuneError {
			n++
			continue
		}
		n += utf16.RuneLen(r)
	}
	return n
}

// claudeSize is Claude Code's size format (its xD): bytes under 1 KiB,
// then KB, MB, GB with one decimal, a trailing ".0" dropped.
func claudeSize(n int64) string {
	kb := float64(n) / 1024
	if kb < 1 {
		return fmt.Sprintf("%d bytes", n)
	}
	one := func(f float64, unit string) string {
		return strings.TrimSuffix(fmt.Sprintf("%.1f", f), ".0") + unit
	}
	if kb < 1024 {
		return one(kb, "KB")
	}
	if mb := kb / 1024; mb < 1024 {
		return one(mb, "MB")
	}
	return one(kb/1024/1024, "GB")
}

// claudeBashPersisted is claudeBash's note for output cut by the output
// limit: the size of the whole and the file that holds it.
func claudeBashPersisted(o *tools.BashOutput) string {
	// The note shows the output as claudeStdout makes it, and counts
	// the bytes that drops off its ends as gone from the whole.
	shown := claudeStdout(o.Output)
	return claudePersisted(o.OutputBytes-int64(len(o.Output)-len(shown)), o.FullOutputPath, shown)
}
