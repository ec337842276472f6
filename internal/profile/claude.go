package profile

import (
	"bytes"
	"cmp"
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"unicode"

	"github.com/hands-dev/hands/internal/notebook"
	"github.com/hands-dev/hands/internal/tools"
	"github.com/hands-dev/hands/tool"
)

// claude is seed 003's surface: Claude Code 2.x's tool names, parameters
// and full descriptions, and the output conventions models trained on it
// expect. Descriptions of Read, Write, Edit, Glob, Grep, Bash, TaskOutput,
// KillShell and TodoWrite are the seed's, word for word; MultiEdit, LS and
// NotebookEdit, which the seed lists without a description, follow Claude
// Code's own. The [CODE] of an error is in the structured content only.
func claude(lim tools.Limits) *Profile {
	filePath := func(desc string) Param { return Param{Name: "file_path", Core: "path", Description: desc} }
	p := &Profile{
		Name: "claude",
		// Read reads files only, whole when no window is given, and a
		// window past the end is a warning, not an error; Write and Edit
		// need a read first; an Edit with an empty old_string creates a
		// file and refuses a notebook; Glob lists hidden and ignored files,
		// oldest first; Grep searches hidden files; the shell names itself
		// by its path, its output's control characters are shown as they
		// are, and a command past its timeout goes on in the background
		// (Claude Code 2.1.7).
		Behavior: tools.Behavior{ReadFilesOnly: true, ReadWholeFile: true, ReadPastEndIsEmpty: true,
			EditCreatesFile: true, EditRefusesNotebooks: true, GlobAll: true, GrepHidden: true, GrepByPath: true, GrepBadPatternFindsNothing: true,
			NotebookSourceString: true, TaskOutputWhole: true, CommandFailureIsError: true, ExitPlanWithoutPlan: true,
			ShellNamedByPath: true, ShellRawText: true, TimeoutToBackground: true, GrepWhole: true, ClaudeSessionFiles: true, ReadNegativeOffset: true},
		Render: renderClaude,
		Tools: []Entry{
			claudeTask(),
			{Core: "task_output", Name: "TaskOutput", Description: desc("claude/TaskOutput.md"), Params: []Param{
				{Name: "task_id", Description: "The task ID to get output from"},
				{Name: "block", Default: true, Description: "Whether to wait for completion"},
				{Name: "timeout", Default: lim.TaskWaitMS(), Description: "Max wait time in ms", Schema: fmt.Sprintf(`{"type":"number","minimum":0,"maximum":%d}`, lim.BashMaxTimeoutMS())},
			}, Required: []string{"task_id", "block", "timeout"}},
			{Core: "bash", Name: "Bash", Description: desc("claude/Bash.md"), Params: []Param{
				{Name: "command", Description: "The command to execute"},
				{Name: "timeout", Description: "Optional timeout in milliseconds (max {{.BashMaxTimeoutMS}})", Schema: number},
				{Name: "description", Description: desc("claude/Bash.description.md")},
				{Name: "run_in_background", Description: "Set to true to run this command in the background. Use TaskOutput to read the output later."},
				{Name: "dangerouslyDisableSandbox", Core: "dangerously_disable_sandbox", Aliases: []string{"dangerously_disable_sandbox"}, Description: "Set this to true to dangerously override sandbox mode and run commands without sandboxing."},
			}, Transform: claudeBashArgs(lim)},
			{Core: "glob", Name: "Glob", Description: desc("claude/Glob.md"), Params: []Param{
				{Name: "pattern", Description: "The glob pattern to match files against"},
				{Name: "path", Description: `The directory to search in. If not specified, the current working directory will be used. IMPORTANT: Omit this field to use the default directory. DO NOT enter "undefined" or "null" - simply omit it for the default behavior. Must be a valid directory path if provided.`},
			}},
			{Core: "grep", Name: "Grep", Description: desc("claude/Grep.md"), Params: []Param{
				{Name: "pattern", Description: "The regular expression pattern to search for in file contents"},
				{Name: "path", Description: "File or directory to search in (rg PATH). Defaults to current working directory."},
				{Name: "glob", Description: `Glob pattern to filter files (e.g. "*.js", "*.{ts,tsx}") - maps to rg --glob`},
				{Name: "output_mode", Description: `Output mode: "content" shows matching lines (supports -A/-B/-C context, -n line numbers, head_limit), "files_with_matches" shows file paths (supports head_limit), "count" shows match counts (supports head_limit). Defaults to "files_with_matches".`, Schema: `{"enum":["content","files_with_matches","count"]}`},
				{Name: "-B", Description: `Number of lines to show before each match (rg -B). Requires output_mode: "content", ignored otherwise.`, Schema: number},
				{Name: "-A", Description: `Number of lines to show after each match (rg -A). Requires output_mode: "content", ignored otherwise.`, Schema: number},
				{Name: "-C", Description: `Number of lines to show before and after each match (rg -C). Requires output_mode: "content", ignored otherwise.`, Schema: number},
				{Name: "-n", Description: `Show line numbers in output (rg -n). Requires output_mode: "content", ignored otherwise. Defaults to true.`},
				{Name: "-i", Description: "Case insensitive search (rg -i)"},
				{Name: "type", Description: "File type to search (rg --type). Common types: js, py, rust, go, java, etc. More efficient than include for standard file types."},
				{Name: "head_limit", Description: `Limit output to first N lines/entries, equivalent to "| head -N". Works across all output modes: content (limits output lines), files_with_matches (limits file paths), count (limits count entries). Defaults to 0 (unlimited).`, Schema: number},
				{Name: "offset", Description: `Skip first N lines/entries before applying head_limit, equivalent to "| tail -n +N | head -N". Works across all output modes. Defaults to 0.`, Schema: number},
				{Name: "multiline", Description: "Enable multiline mode where . matches newlines and patterns can span lines (rg -U --multiline-dotall). Default: false."},
			}},
			claudeExitPlanMode(),
			{Core: "read", Name: "Read", Description: desc("claude/Read.md"), Params: []Param{
				filePath("The absolute path to the file to read"),
				{Name: "offset", Description: "The line number to start reading from. Only provide if the file is too large to read at once", Schema: number},
				{Name: "limit", Description: "The number of lines to read. Only provide if the file is too large to read at once.", Schema: number},
			}, Transform: claudeReadArgs},
			{Core: "edit", Name: "Edit", Description: desc("claude/Edit.md"), Params: []Param{
				filePath("The absolute path to the file to modify"),
				{Name: "old_string", Core: "old_str", Description: "The text to replace"},
				{Name: "new_string", Core: "new_str", Description: "The text to replace it with (must be different from old_string)"},
				// "occurences" is Claude Code's spelling.
				{Name: "replace_all", Default: false, Description: "Replace all occurences of old_string (default false)"},
			}},
			{Core: "write", Name: "Write", Description: desc("claude/Write.md"), Params: []Param{
				filePath("The absolute path to the file to write (must be absolute, not relative)"),
				{Name: "content", Description: "The content to write to the file"},
			}},
			{Core: "notebook_edit", Name: "NotebookEdit", Description: desc("claude/NotebookEdit.md"), Params: []Param{
				{Name: "notebook_path", Core: "path", Description: "The absolute path to the Jupyter notebook file to edit (must be absolute, not relative)"},
				{Name: "cell_id", Description: "The ID of the cell to edit. When inserting a new cell, the new cell will be inserted after the cell with this ID, or at the beginning if not specified."},
				{Name: "new_source", Description: "The new source for the cell"},
				{Name: "cell_type", Description: "The type of the cell (code or markdown). If not specified, it defaults to the current cell type. If using edit_mode=insert, this is required.", Schema: `{"enum":["code","markdown"]}`},
				{Name: "edit_mode", Description: "The type of edit to make (replace, insert, delete). Defaults to replace.", Schema: `{"enum":["replace","insert","delete"]}`},
			}},
			// The web tools (issue 16): Claude Code 2.1.7's schemas and descriptions.
			{Core: "web_fetch", Name: "WebFetch", Description: desc("claude/WebFetch.md"), Params: []Param{
				{Name: "url", Description: "The URL to fetch content from", Schema: `{"format":"uri"}`},
				{Name: "prompt", Description: "The prompt to run on the fetched content"},
			}},
			{Core: "todo_write", Name: "TodoWrite", Description: desc("claude/TodoWrite.md"), Params: []Param{
				{Name: "todos", Description: "The updated todo list", Items: []Param{
					{Name: "content", NoDescription: true, Schema: `{"minLength":1}`},
					{Name: "status", NoDescription: true, Schema: `{"enum":["pending","in_progress","completed"]}`},
					{Name: "activeForm", NoDescription: true, Schema: `{"minLength":1}`},
				}, ItemsRequired: []string{"content", "status", "activeForm"}},
			}},
			{Core: "web_search", Name: "WebSearch", Description: desc("claude/WebSearch.md"), Params: []Param{
				{Name: "query", Description: "The search query to use", Schema: `{"minLength":2}`},
				{Name: "allowed_domains", Description: "Only include search results from these domains"},
				{Name: "blocked_domains", Description: "Never include search results from these domains"},
			}},
			{Core: "task_kill", Name: "KillShell", Description: desc("claude/KillShell.md"), Params: []Param{
				{Name: "shell_id", Core: "task_id", Description: "The ID of the background shell to kill"},
			}},
			// Plan mode and questions (issue 22), in Claude Code's order: claude_plan.go.
			claudeAskUserQuestion(), claudeSkill(), claudeEnterPlanMode(),
			// Code intelligence (issue 19): claude_lsp.go.
			claudeLSP(),
		},
	}
	for i := range p.Tools {
		if p.Tools[i].SchemaKeywords == "" {
			p.Tools[i].SchemaKeywords = `{"$schema":"https://json-schema.org/draft/2020-12/schema"}`
		}
	}
	return p
}

// number is the JSON Schema type Claude Code gives its numeric
// parameters; the core reads them as integers.
const number = `{"type":"number"}`

// claudeReadArgs reads offset 0 as the first line (there is no line 0,
// and a model sending it means "from the start").
func claudeReadArgs(args map[string]json.RawMessage) *tool.Error {
	if v, ok := args["offset"]; ok && string(v) == "0" {
		delete(args, "offset")
	}
	return nil
}

// claudeBashArgs caps a timeout over the maximum at the maximum, as Claude
// Code does, instead of refusing it.
func claudeBashArgs(lim tools.Limits) func(args map[string]json.RawMessage) *tool.Error {
	return func(args map[string]json.RawMessage) *tool.Error {
		var ms float64
		if v, ok := args["timeout"]; ok && json.Unmarshal(v, &ms) == nil && ms > float64(lim.BashMaxTimeoutMS()) {
			args["timeout"] = json.RawMessage(strconv.FormatInt(lim.BashMaxTimeoutMS(), 10))
		}
		return nil
	}
}

// The messages of Claude Code 2.x that the issue and the model know.
const (
	claudeNotRead  = "File has not been read yet. Read it first before writing to it."
	claudeModified = "File has been modified since read, either by the user or by a linter. Read it again before attempting to write it."
	claudeNotFound = "String to replace not found in file.\nString: %s"
	claudeAmbig    = "Found %s matches of the string to replace, but replace_all is false. To replace all occurrences, set replace_all to true. To replace only one occurrence, please provide more context to uniquely identify the instance.\nString: %s"
	claudeSnippet  = "The file %s has been updated. Here's the result of running `cat -n` on a snippet of the edited file:\n%s"
	claudeShort    = "<system-reminder>Warning: the file exists but is shorter than the provided offset (%d). The file has %d lines.</system-reminder>"
	claudeTodos    = "Todos have been modified successfully. Ensure that you continue to use the todo list to track your progress. Please proceed with the current tasks if applicable"
)

func renderClaude(r *Rendering) {
	if renderClaudePlan(r) {
		return
	}
	if e := r.Err(); e != nil {
		if claudeLSPError(r, e) {
			return
		}
		switch {
		case e.Code == tool.CommandFailed:
			if o, ok := e.Output.(*tools.BashOutput); ok {
				// Claude Code shows a failed command as its output, untagged.
				r.Text(claudeBash(o))
				return
			}
		case e.Code == tool.InvalidInput && e.Details["reason"] == "unknown_agent":
			// Claude Code 2.1.7's text, untagged (measured).
			r.Text(e.Message)
			return
		case e.Code == tool.InvalidInput && e.Details["reason"] == "unknown_skill":
			r.Text(fmt.Sprintf("<tool_use_error>Unknown skill: %v</tool_use_error>", e.Details["skill"]))
			return
		case e.Code == tool.InvalidInput && r.Entry.Core == "read" && e.Details["kind"] == "directory":
			// Node's own error, untagged.
			r.Text("EISDIR: illegal operation on a directory, read")
			return
		}
		r.Text("<tool_use_error>" + claudeError(r, e) + "</tool_use_error>")
		return
	}
	switch out := r.Out.(type) {
	case *tools.ReadOutput:
		if out.Kind != "image" {
			r.Text(claudeRead(r, out))
		}
	case *tools.WriteOutput:
		r.Text(claudeWrite(r, out))
	case *tools.EditOutput:
		r.Text(claudeEdit(r, out))
	case *tools.GlobOutput:
		r.Text(claudeGlob(out))
	case *tools.GrepOutput:
		r.Text(claudeGrep(r, out))
	case *tools.BashOutput:
		r.Text(claudeBash(out))
	case *tools.TaskOutputOutput:
		r.Text(claudeTaskOutput(out))
	case *tools.TaskResult:
		r.Res.Content = claudeTaskResult(out)
	case *tools.TaskKillOutput:
		if out.AlreadyFinished {
			r.Text(fmt.Sprintf("Shell %s is not running, so cannot be killed (status: %s)", out.TaskID, out.Status))
		} else {
			r.Text(marshal(struct {
				Message string `json:"message"`
				ShellID string `json:"shell_id"`
			}{fmt.Sprintf("Successfully killed shell: %s (%s)", out.TaskID, out.Command), out.TaskID}))
		}
	case *tools.NotebookEditOutput:
		r.Text(claudeNotebook(r, out))
	case *tools.TodoWriteOutput:
		r.Text(claudeTodos)
	case *tools.LSPOutput:
		r.Text(claudeLSPText(out))
	default:
		claudeWebResult(r)
	}
	claudePersistLarge(r)
}

// claudeError is the text inside <tool_use_error>: Claude Code's message
// where the model knows one, the core's otherwise (without the code).
func claudeError(r *Rendering, e *tool.Error) string {
	if e.Problem != nil {
		if s, ok := claudeProblem(r.Entry, e.Problem); ok {
			return s
		}
	}
	if text, ok := claudeWebError(r, e); ok {
		return text
	}
	switch e.Code {
	case tool.FileNotViewed:
		return claudeNotRead
	case tool.FileChanged:
		return claudeModified
	case tool.StrReplaceNotFound:
		return fmt.Sprintf(claudeNotFound, r.detail("old_str"))
	case tool.StrReplaceAmbiguous:
		return fmt.Sprintf(claudeAmbig, r.detail("count"), r.detail("old_str"))
	case tool.PathNotFound:
		switch r.Entry.Core {
		case "read", "edit", "write":
			return "File does not exist."
		case "glob":
			return "Directory does not exist: " + r.detail("path")
		case "grep":
			return "Path does not exist: " + r.detail("path")
		}
	case tool.FileTooLarge:
		if r.Entry.Core == "read" && r.detail("max") != "" {
			size, _ := e.Details["size"].(int64)
			limit, _ := e.Details["max"].(int64)
			return fmt.Sprintf("File content (%dKB) exceeds maximum allowed size (%dKB). Please use offset and limit parameters to read specific portions of the file, or use the GrepTool to search for specific content.", kb(size), kb(limit))
		}
	case tool.InvalidInput:
		switch {
		case r.detail("kind") == "file" && r.Entry.Core == "glob":
			return "Path is not a directory: " + r.detail("path")
		case r.detail("kind") == "notebook":
			return "File is a Jupyter Notebook. Use the NotebookEdit to edit this file."
		case r.detail("kind") == "exists":
			return "Cannot create new file - file already exists."
		case r.detail("missing") == "cell_type":
			return "Cell type is required when using edit_mode=insert."
		}
	case tool.BashTaskNotFound:
		if id := r.detail("task_id"); id != "" {
			if r.Entry.Core == "task_kill" {
				return "No shell found with ID: " + id
			}
			return "No task found with ID: " + id
		}
	}
	return e.Message
}

func kb(n int64) int64 { return int64(math.Round(float64(n) / 1024)) }

// claudeProblem renders a schema problem as Claude Code's input validation
// does: a sentence for a missing parameter, the validator's issue list as
// JSON for a value outside an enum.
func claudeProblem(e Entry, p *tool.Problem) (string, bool) {
	switch p.Kind {
	case tool.Missing:
		if p.At != "" {
			// Inside an array element Claude Code's words are not known.
			return "", false
		}
		var lines []string
		for _, k := range p.Params {
			lines = append(lines, fmt.Sprintf("The required parameter `%s` is missing", e.Param(k)))
		}
		issue := "issue"
		if len(lines) > 1 {
			issue = "issues"
		}
		return fmt.Sprintf("InputValidationError: %s failed due to the following %s:\n%s", e.Name, issue, strings.Join(lines, "\n")), true
	case tool.WrongType:
		if strings.ContainsAny(p.At, ".[") || len(p.Want) != 1 {
			return "", false
		}
		return fmt.Sprintf("InputValidationError: %s failed due to the following issue:\nThe parameter `%s` type is expected as `%s` but provided as `%s`", e.Name, e.Param(p.At), claudeType(p.Want[0]), claudeType(jsonType(p.Value))), true
	case tool.NotAllowed:
		var values []any
		var quoted []string
		for _, w := range p.Want {
			var v any
			if json.Unmarshal([]byte(w), &v) != nil {
				return "", false
			}
			values = append(values, v)
			quoted = append(quoted, w)
		}
		issue := []zodIssue{{Code: "invalid_value", Values: values, Path: zodPath(e.Param(p.At)),
			Message: "Invalid option: expected one of " + strings.Join(quoted, "|")}}
		var b bytes.Buffer
		enc := json.NewEncoder(&b)
		enc.SetEscapeHTML(false)
		enc.SetIndent("", "  ")
		if enc.Encode(issue) != nil {
			return "", false
		}
		return "InputValidationError: " + strings.TrimSuffix(b.String(), "\n"), true
	}
	return "", false
}

// claudeType names a JSON type as Claude Code's messages do.
func claudeType(t string) string {
	if t == "integer" {
		return "number"
	}
	return t
}

// jsonType names the JSON type of a value.
func jsonType(v json.RawMessage) string {
	var x any
	if json.Unmarshal(v, &x) != nil {
		return "unknown"
	}
	switch x.(type) {
	case string:
		return "string"
	case float64:
		return "number"
	case bool:
		return "boolean"
	case []any:
		return "array"
	case map[string]any:
		return "object"
	}
	return "null"
}

// zodIssue is one issue of Claude Code's schema validator, in its field
// order.
type zodIssue struct {
	Code    string `json:"code"`
	Values  []any  `json:"values"`
	Path    []any  `json:"path"`
	Message string `json:"message"`
}

// zodPath splits an exposed parameter path such as "todos[0].status" into
// the validator's path: "todos", 0, "status".
func zodPath(at string) []any {
	var out []any
	for _, seg := range strings.Split(at, ".") {
		name, rest, _ := strings.Cut(seg, "[")
		out = append(out, name)
		for rest != "" {
			idx, after, _ := strings.Cut(rest, "]")
			n, err := strconv.Atoi(idx)
			if err != nil {
				out = append(out, idx)
			} else {
				out = append(out, n)
			}
			rest = strings.TrimPrefix(after, "[")
		}
	}
	return out
}

// claudeLines numbers lines as Claude Code's Read does: the number right
// aligned in six columns, an arrow, the line.
func claudeLines(lines []string, first int) string {
	var b strings.Builder
	for i, l := range lines {
		if i > 0 {
			b.WriteByte('\n')
		}
		fmt.Fprintf(&b, "%6d→%s", first+i, l)
	}
	return b.String()
}

// claudeRead renders a read as Claude Code does. Claude Code splits the
// text on line breaks, so a final line break starts one more, empty line.
func claudeRead(r *Rendering, o *tools.ReadOutput) string {
	in, _ := r.In.(tools.ReadInput)
	offset := in.Offset
	if offset == 0 {
		offset = 1
	}
	switch o.Kind {
	case "empty":
		return fmt.Sprintf(claudeShort, offset, 1)
	case "notebook":
		return claudeCells(o.Cells)
	}
	lines := o.Lines
	if !o.More && o.FinalNewline && !in.ZeroLimit() && (in.Limit == 0 || len(lines) < in.Limit) && o.StartLine >= 1 && o.StartLine <= o.TotalLines+1 {
		lines = append(slices.Clip(lines), "")
	}
	// Claude Code warns when the lines it took join to nothing: none, or
	// one empty line.
	if len(lines) == 0 || len(lines) == 1 && lines[0] == "" {
		total := o.TotalLines
		if o.FinalNewline {
			total++
		}
		return fmt.Sprintf(claudeShort, offset, total)
	}
	return claudeLines(lines, o.StartLine)
}

// claudeCells renders a notebook's cells as Claude Code's Read does.
func claudeCells(cells []notebook.Cell) string {
	var parts []string
	for _, c := range cells {
		id := c.ID
		if id == "" {
			id = fmt.Sprintf("cell-%d", c.Index)
		}
		var b strings.Builder
		fmt.Fprintf(&b, "<cell id=%q>", id)
		if c.Type != "code" {
			fmt.Fprintf(&b, "<cell_type>%s</cell_type>", c.Type)
		}
		fmt.Fprintf(&b, "%s</cell id=%q>", c.Source, id)
		parts = append(parts, b.String())
		for _, out := range c.Outputs {
			parts = append(parts, "\n"+out.Text)
		}
	}
	return strings.Join(parts, "\n")
}

// claudeWrite is Write's result: the path of a new file, or a snippet of
// the replaced one.
func claudeWrite(r *Rendering, o *tools.WriteOutput) string {
	in, _ := r.In.(tools.WriteInput)
	if o.Action == "created" {
		return "File created successfully at: " + o.Path
	}
	path := cmp.Or(in.Path, o.Path)
	return fmt.Sprintf(claudeSnippet, path, claudeLines(strings.Split(in.Content, "\n"), 1))
}

// claudeEdit is Edit's result: for one replacement the lines around it in
// the new text (four before, four after), for replace_all a sentence.
func claudeEdit(r *Rendering, o *tools.EditOutput) string {
	in, _ := r.In.(tools.EditInput)
	path := cmp.Or(in.Path, o.Path)
	if in.ReplaceAll {
		return fmt.Sprintf("The file %s has been updated. All occurrences of '%s' were successfully replaced with '%s'.", path, in.OldStr, in.NewStr)
	}
	// NewText holds the new text's lines from NewTextLine on, enough of
	// them around the replacement; indices below count from the file's
	// first line.
	lines := strings.Split(o.NewText, "\n")
	base := max(o.NewTextLine, 1) - 1
	at := 0
	if len(o.Lines) > 0 {
		at = o.Lines[0] - 1
	}
	start := max(base, at-4)
	end := min(base+len(lines), at+4+len(strings.Split(in.NewStr, "\n")))
	if start > end {
		start = end
	}
	return fmt.Sprintf(claudeSnippet, path, claudeLines(lines[start-base:end-base], start+1))
}

func claudeGlob(o *tools.GlobOutput) string {
	if o.Total == 0 {
		return "No files found"
	}
	s := strings.Join(o.Paths, "\n")
	if o.Total > len(o.Paths) {
		s += "\n(Results are truncated. Consider using a more specific path or pattern.)"
	}
	return s
}

// claudeGrep renders the three output modes as Claude Code does: paths
// relative to the working directory (none when one file was searched),
// and the pagination it applied.
func claudeGrep(r *Rendering, o *tools.GrepOutput) string {
	in, _ := r.In.(tools.GrepInput)
	if o.NumFiles == 0 {
		switch o.Mode {
		case "files_with_matches":
			return "No files found"
		case "count":
			return "No matches found\n\nFound 0 total occurrences across 0 files."
		}
		return "No matches found"
	}
	lines := claudeGrepPaths(r, o)
	// Claude Code notes the pagination whenever one was asked for, and
	// counts what it shows.
	paged := in.HeadLimit > 0 || in.Offset > 0
	pagination := ""
	if paged {
		limit := "undefined"
		if in.HeadLimit > 0 {
			limit = strconv.Itoa(in.HeadLimit)
		}
		pagination = fmt.Sprintf("limit: %s, offset: %d", limit, in.Offset)
	}
	var s string
	switch o.Mode {
	case "files_with_matches":
		s = "Found " + plural(len(lines), "file")
		if paged {
			s += " " + pagination
		}
		s += "\n" + strings.Join(lines, "\n")
	case "count":
		// Claude Code sums what follows each line's last colon, so a
		// single file's bare count adds nothing.
		matches, files := 0, 0
		for _, l := range lines {
			if p := strings.LastIndexByte(l, ':'); p > 0 {
				digits := l[p+1:]
				digits = digits[:len(digits)-len(strings.TrimLeft(digits, "0123456789"))]
				if n, err := strconv.Atoi(digits); err == nil {
					matches += n
					files++
				}
			}
		}
		s = strings.Join(lines, "\n") + fmt.Sprintf("\n\nFound %d total %s across %s.", matches, occurrences(matches), plural(files, "file"))
		if paged {
			s += " with pagination = " + pagination
		}
	default:
		s = strings.Join(lines, "\n")
		if paged {
			s += "\n\n[Showing results with pagination = " + pagination + "]"
		}
	}
	if o.CutByLimit {
		// Past tools.GrepWholeChars (Claude Code has no such bound).
		s += fmt.Sprintf("\n\n[Output cut after %d of %d lines; narrow the search with path, glob or type, or page with offset]", in.Offset+len(o.Lines), o.TotalLines)
	}
	return s
}

// claudeGrepPaths returns the output lines with each file's path made
// relative to the working directory, or left out when the search was of
// that one file.
func claudeGrepPaths(r *Rendering, o *tools.GrepOutput) []string {
	out := make([]string, len(o.Lines))
	for i, l := range o.Lines {
		out[i] = l
		for _, f := range o.Files {
			if !strings.HasPrefix(l, f.Path) {
				continue
			}
			rest := l[len(f.Path):]
			switch {
			case rest == "":
				out[i] = r.Rel(f.Path)
			case rest[0] == ':' || rest[0] == '-':
				if f.Path == o.Path && (o.Mode == "content" || o.Mode == "count") {
					out[i] = rest[1:]
				} else {
					out[i] = r.Rel(f.Path) + rest
				}
			default:
				continue
			}
			break
		}
	}
	return out
}

func occurrences(n int) string {
	if n == 1 {
		return "occurrence"
	}
	return "occurrences"
}

// claudeBash merges the streams, as Claude Code's Bash does; a non-zero
// exit is an error whose text starts "Exit code N" (seed 003's Bash
// returns ToolOutput::error for it).
func claudeBash(o *tools.BashOutput) string {
	if o.TaskID != "" {
		if o.TaskFile != "" {
			return fmt.Sprintf("Command running in background with ID: %s. Output is being written to: %s", o.TaskID, o.TaskFile)
		}
		return fmt.Sprintf("Command running in background with ID: %s", o.TaskID)
	}
	if o.Truncated && o.FullOutputPath != "" && o.OutputBytes > 0 {
		return claudeBashPersisted(o)
	}
	output := claudeStdout(o.Output)
	var lines []string
	if o.CwdNote != "" {
		output = strings.TrimLeft(output+"\n"+o.CwdNote, "\n")
	}
	switch {
	case o.TimedOut:
		lines = append(lines, fmt.Sprintf("Command timed out after %dms", o.TimeoutMS))
	case o.ExitCode != 0:
		lines = append(lines, fmt.Sprintf("Exit code %d", o.ExitCode))
	}
	if output != "" {
		lines = append(lines, output)
	}
	return strings.Join(lines, "\n")
}

// claudeStdout is a command's output as Claude Code 2.1.7's Bash shows
// it: its leading blank lines and its trailing white space dropped
// (`replace(/^(\s*\n)+/, "")`, then trimEnd).
func claudeStdout(s string) string {
	lead := strings.TrimLeftFunc(s, jsSpace)
	if nl := strings.LastIndexByte(s[:len(s)-len(lead)], '\n'); nl >= 0 {
		s = s[nl+1:]
	}
	return strings.TrimRightFunc(s, jsSpace)
}

// jsSpace reports whether JavaScript's \s matches r.
func jsSpace(r rune) bool {
	switch r {
	case '\ufeff':
		return true
	case '\u0085':
		return false
	}
	return unicode.IsSpace(r)
}

// claudeTaskOutput is TaskOutput's tagged result.
func claudeTaskOutput(o *tools.TaskOutputOutput) string {
	retrieval, status := "success", "completed"
	switch {
	case o.Status == "running":
		retrieval, status = "not_ready", "running"
	case o.Status == "killed", o.Status == "timed out":
		status = "killed"
	case o.ExitCode != nil && *o.ExitCode != 0:
		status = "failed"
	}
	if o.Agent {
		return claudeAgentOutput(o, retrieval)
	}
	parts := []string{
		"<retrieval_status>" + retrieval + "</retrieval_status>",
		"<task_id>" + o.TaskID + "</task_id>",
		"<task_type>local_bash</task_type>",
		"<status>" + status + "</status>",
	}
	if o.ExitCode != nil && status != "killed" {
		parts = append(parts, fmt.Sprintf("<exit_code>%d</exit_code>", *o.ExitCode))
	}
	output := strings.TrimRight(o.Output, "\n")
	if o.CwdNote != "" {
		output = strings.TrimLeft(o.CwdNote+"\n"+output, "\n")
	}
	if output != "" {
		parts = append(parts, "<output>\n"+output+"\n</output>")
	}
	return strings.Join(parts, "\n\n")
}

func claudeNotebook(r *Rendering, o *tools.NotebookEditOutput) string {
	cell := o.CellID
	if cell == "" {
		cell = fmt.Sprint(o.CellIndex)
	}
	src := ""
	if in, ok := r.In.(tools.NotebookEditInput); ok {
		src = in.NewSource
	}
	switch o.EditMode {
	case "insert":
		return fmt.Sprintf("Inserted cell %s with %s", cell, src)
	case "delete":
		return "Deleted cell " + cell
	}
	return fmt.Sprintf("Updated cell %s with %s", cell, src)
}
