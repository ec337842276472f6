package profile

import (
	"encoding/json"
	"fmt"
	"strings"

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
	return &Profile{
		Name: "claude",
		// Read reads files only (its description says so; LS lists
		// directories); Write and Edit need a read first.
		Behavior: tools.Behavior{ReadFilesOnly: true, CommandFailureIsError: true},
		Render:   renderClaude,
		Tools: []Entry{
			{Core: "read", Name: "Read", Description: desc("claude/Read.md"), Params: []Param{
				filePath("The absolute path to the file to read"),
				{Name: "offset", Description: "Line number to start reading from"},
				{Name: "limit", Description: "Number of lines to read"},
			}, Transform: claudeReadArgs(lim)},
			{Core: "write", Name: "Write", Description: desc("claude/Write.md"), Params: []Param{
				filePath("The absolute path to the file to write (must be absolute, not relative)"),
				{Name: "content", Description: "The content to write to the file"},
			}},
			{Core: "edit", Name: "Edit", Description: desc("claude/Edit.md"), Params: []Param{
				filePath("The absolute path to the file to modify"),
				{Name: "old_string", Core: "old_str", Description: "The text to replace"},
				{Name: "new_string", Core: "new_str", Description: "The text to replace it with (must be different from old_string)"},
				{Name: "replace_all", Default: false, Description: "Replace all occurrences of old_string (default false)"},
			}},
			{Core: "multi_edit", Name: "MultiEdit", Description: desc("claude/MultiEdit.md"), Params: []Param{
				filePath("The absolute path to the file to modify"),
				{Name: "edits", Description: "Array of edit operations to perform sequentially on the file", Schema: `{"minItems":1}`, Items: []Param{
					{Name: "old_string", Core: "old_str", Description: "The text to replace"},
					{Name: "new_string", Core: "new_str", Description: "The text to replace it with"},
					{Name: "replace_all", Description: "Replace all occurrences of old_string (default false)."},
				}},
			}},
			{Core: "list", Name: "LS", Description: desc("claude/LS.md"), Params: []Param{
				{Name: "path", Description: "The absolute path to the directory to list (must be absolute, not relative)"},
				{Name: "ignore", Description: "List of glob patterns to ignore"},
			}},
			{Core: "glob", Name: "Glob", Description: desc("claude/Glob.md"), Params: []Param{
				{Name: "pattern", Description: "The glob pattern to match files against"},
				{Name: "path", Description: "The directory to search in. Defaults to current working directory."},
			}},
			{Core: "grep", Name: "Grep", Description: desc("claude/Grep.md"), Params: []Param{
				{Name: "pattern", Description: "The regular expression pattern to search for in file contents"},
				{Name: "path", Description: "File or directory to search in. Defaults to current working directory."},
				{Name: "glob", Description: `Glob pattern to filter files (e.g. "*.js", "*.{ts,tsx}")`},
				{Name: "type", Description: "File type to search (e.g., js, py, rust)"},
				{Name: "output_mode", Description: "Output mode. Defaults to files_with_matches.", Schema: `{"enum":["content","files_with_matches","count"]}`},
				{Name: "multiline", Description: "Enable multiline mode where . matches newlines. Default: false."},
				{Name: "-i", Description: "Case insensitive search"},
				{Name: "-n", Description: "Show line numbers in output"},
				{Name: "-A", Description: "Lines to show after each match"},
				{Name: "-B", Description: "Lines to show before each match"},
				{Name: "-C", Description: "Lines to show before and after each match"},
				{Name: "head_limit", Description: "Limit output to first N entries"},
				{Name: "offset", Description: "Skip first N entries"},
			}},
			{Core: "bash", Name: "Bash", Description: desc("claude/Bash.md"), Params: []Param{
				{Name: "command", Description: "The command to execute"},
				{Name: "description", Description: "Clear, concise description of what this command does"},
				{Name: "timeout", Description: "Optional timeout in milliseconds (max 600000)"},
				{Name: "run_in_background", Description: "Set to true to run this command in the background"},
				{Name: "dangerously_disable_sandbox", Description: "Set to true to dangerously override sandbox mode and run commands without sandboxing"},
			}},
			{Core: "task_output", Name: "TaskOutput", Description: desc("claude/TaskOutput.md"), Params: []Param{
				{Name: "task_id", Description: "The task ID to get output from"},
				{Name: "block", Default: true, Description: "Whether to wait for completion"},
				{Name: "timeout", Default: lim.TaskWaitMS(), Description: "Max wait time in ms", Schema: fmt.Sprintf(`{"minimum":0,"maximum":%d}`, lim.BashMaxTimeoutMS())},
			}, Required: []string{"task_id", "block", "timeout"}},
			{Core: "task_kill", Name: "KillShell", Description: desc("claude/KillShell.md"), Params: []Param{
				{Name: "shell_id", Core: "task_id", Description: "The ID of the background shell to kill"},
			}},
			{Core: "todo_write", Name: "TodoWrite", Description: desc("claude/TodoWrite.md"), Params: []Param{
				{Name: "todos", Description: "The complete list of todos (replaces existing list)", Items: []Param{
					{Name: "content", Description: "Brief, actionable title in imperative form"},
					{Name: "status", Description: "Task status", Schema: `{"enum":["pending","in_progress","completed"]}`},
					{Name: "activeForm", Description: "Present continuous form for spinner display"},
				}},
			}},
			{Core: "notebook_edit", Name: "NotebookEdit", Description: desc("claude/NotebookEdit.md"), Params: []Param{
				{Name: "notebook_path", Core: "path", Description: "The absolute path to the Jupyter notebook file to edit (must be absolute, not relative)"},
				{Name: "cell_id", Description: "The ID of the cell to edit. When inserting a new cell, the new cell will be inserted after the cell with this ID, or at the beginning if not specified."},
				{Name: "new_source", Description: "The new source for the cell"},
				{Name: "cell_type", Description: "The type of the cell (code or markdown). If not specified, it defaults to the current cell type. If using edit_mode=insert, this is required.", Schema: `{"enum":["code","markdown"]}`},
				{Name: "edit_mode", Description: "The type of edit to make (replace, insert, delete). Defaults to replace.", Schema: `{"enum":["replace","insert","delete"]}`},
			}},
		},
	}
}

// claudeReadArgs settles what Claude Code leaves odd: it accepts offset 0
// and limit 0 silently. Here offset 0 means the first line (there is no
// line 0, and a model sending it means "from the start"), and limit 0,
// which asks for nothing, is refused with the fix.
func claudeReadArgs(lim tools.Limits) func(args map[string]json.RawMessage) *tool.Error {
	return func(args map[string]json.RawMessage) *tool.Error {
		if v, ok := args["limit"]; ok && string(v) == "0" {
			return tool.Errorf(tool.InvalidInput, "limit 0 reads no lines; give a positive number of lines, or leave limit out to read up to %d", lim.ReadLines)
		}
		if v, ok := args["offset"]; ok && string(v) == "0" {
			delete(args, "offset")
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
	claudeTodos    = "Todos have been modified successfully. Ensure that you continue to use the todo list to track your progress. Please proceed with the current tasks if applicable"
)

func renderClaude(r *Rendering) {
	if e := r.Err(); e != nil {
		if o, ok := e.Output.(*tools.BashOutput); ok && e.Code == tool.CommandFailed {
			// Claude Code shows a failed command as its output, untagged.
			r.Text(claudeBash(o))
			return
		}
		r.Text("<tool_use_error>" + claudeError(r, e) + "</tool_use_error>")
		return
	}
	switch out := r.Out.(type) {
	case *tools.ReadOutput:
		if out.Kind == "empty" {
			r.Text("<system-reminder>Warning: the file exists but the contents are empty.</system-reminder>")
		}
		// Otherwise the core's "%6d\t%s" lines are Claude Code's.
	case *tools.WriteOutput:
		if out.Action == "created" {
			r.Text("File created successfully at: " + out.Path)
		} else {
			r.Text(fmt.Sprintf("The file %s has been updated successfully.", out.Path))
		}
	case *tools.EditOutput:
		r.Text(fmt.Sprintf(claudeSnippet, out.Path, snippet(out.Diff, 60)))
	case *tools.ListOutput:
		r.Text(claudeLS(out))
	case *tools.GlobOutput:
		r.Text(claudeGlob(out))
	case *tools.GrepOutput:
		r.Text(claudeGrep(out))
	case *tools.BashOutput:
		r.Text(claudeBash(out))
	case *tools.TaskOutputOutput:
		r.Text(claudeTaskOutput(out))
	case *tools.TaskKillOutput:
		if out.AlreadyFinished {
			r.Text(fmt.Sprintf("Shell %s is not running, so cannot be killed (status: %s)", out.TaskID, out.Status))
		} else {
			r.Text("Successfully killed shell: " + out.TaskID)
		}
	case *tools.NotebookEditOutput:
		r.Text(claudeNotebook(r, out))
	case *tools.TodoWriteOutput:
		r.Text(claudeTodos)
	}
}

// claudeError is the text inside <tool_use_error>: Claude Code's message
// where the model knows one, the core's otherwise (without the code).
func claudeError(r *Rendering, e *tool.Error) string {
	switch e.Code {
	case tool.FileNotViewed:
		return claudeNotRead
	case tool.FileChanged:
		return claudeModified
	case tool.StrReplaceNotFound:
		return fmt.Sprintf(claudeNotFound, r.detail("old_str"))
	case tool.StrReplaceAmbiguous:
		return fmt.Sprintf(claudeAmbig, r.detail("count"), r.detail("old_str"))
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

// claudeLS is LS's tree: the directory, then its entries indented.
func claudeLS(o *tools.ListOutput) string {
	var b strings.Builder
	b.WriteString("- " + strings.TrimSuffix(o.Path, "/") + "/\n")
	for _, e := range o.Entries {
		b.WriteString("  - " + e.Name)
		if e.Dir {
			b.WriteString("/")
		}
		b.WriteString("\n")
	}
	if o.More > 0 {
		fmt.Fprintf(&b, "\n(%d more entries not shown; use Glob to find specific files)\n", o.More)
	}
	return strings.TrimSuffix(b.String(), "\n")
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

// claudeGrep renders the three output modes as Claude Code does.
func claudeGrep(o *tools.GrepOutput) string {
	if o.NumFiles == 0 {
		if o.Mode == "files_with_matches" {
			return "No files found"
		}
		return "No matches found"
	}
	var s string
	switch o.Mode {
	case "files_with_matches":
		s = fmt.Sprintf("Found %s\n%s", plural(o.NumFiles, "file"), strings.Join(o.Lines, "\n"))
	case "count":
		s = strings.Join(o.Lines, "\n") + fmt.Sprintf("\n\nFound %d total %s across %s.", o.NumMatches, occurrences(o.NumMatches), plural(o.NumFiles, "file"))
	default:
		s = strings.Join(o.Lines, "\n")
	}
	if o.More {
		last := o.Offset + len(o.Lines)
		s += fmt.Sprintf("\n\n(Showing entries %d-%d of %d; to see more, call again with offset: %d)", o.Offset+1, last, o.TotalLines, last)
	}
	return s
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
		return fmt.Sprintf("Command running in background with ID: %s", o.TaskID)
	}
	output := strings.TrimRight(o.Output, "\n")
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
	text := strings.Join(lines, "\n")
	if len(lines) == 0 {
		text = "(Bash completed with no output)"
	}
	return text
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
	parts := []string{
		"<retrieval_status>" + retrieval + "</retrieval_status>",
		"<task_id>" + o.TaskID + "</task_id>",
		"<task_type>local_bash</task_type>",
		"<status>" + status + "</status>",
	}
	if o.ExitCode != nil {
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
