package profile

import (
	"fmt"
	"sort"
	"strings"
	"unicode/utf8"

	"github.com/hands-dev/hands/internal/tools"
	"github.com/hands-dev/hands/tool"
)

// taskdaemon is seed 004's surface: the tools of a loop scoped to a git
// worktree (the first root), with the seed's names, parameters,
// descriptions and output. Errors read "[CODE] message", the message the
// seed's where it has one. The coordination tools (query_loop, share_data,
// complete_task) are always listed, as the seed's executor has them; without
// a coordinator query_loop and share_data say that none is configured.
//
// Decisions, each the seed's behaviour: edit_file needs a read first,
// write_file does not; read_file reads files only; list_directory and glob
// list everything, .gitignore or not (read_dir and the glob crate ignore
// nothing), while grep respects it (ripgrep does); run_command keeps stdout
// and stderr apart, and a command that fails is an error.
func taskdaemon(lim tools.Limits) *Profile {
	worktree := func(what string) string { return what + " relative to worktree" }
	return &Profile{
		Name:     "taskdaemon",
		Behavior: tools.Behavior{SeparateStreams: true, WriteWithoutRead: true, ReadFilesOnly: true, CommandFailureIsError: true},
		Render:   func(r *Rendering) { renderTaskdaemon(r, lim.BashOutputChars) },
		Tools: []Entry{
			{Core: "read", Name: "read_file", Description: desc("taskdaemon/read_file.md"), Params: []Param{
				{Name: "path", Description: worktree("File path")},
				{Name: "offset", Description: "Line number to start reading from (1-indexed)"},
				{Name: "limit", Description: "Max lines to read (default: {{.ReadLines}})"},
			}},
			{Core: "write", Name: "write_file", Description: desc("taskdaemon/write_file.md"), Params: []Param{
				{Name: "path", Description: worktree("File path")},
				{Name: "content", Description: "Content to write"},
			}},
			{Core: "edit", Name: "edit_file", Description: desc("taskdaemon/edit_file.md"), Params: []Param{
				{Name: "path", Description: worktree("File path")},
				{Name: "old_string", Core: "old_str", Description: "Exact string to find and replace"},
				{Name: "new_string", Core: "new_str", Description: "Replacement string"},
				{Name: "replace_all", Description: "Replace all occurrences (default: false)"},
			}},
			{Core: "list", Name: "list_directory", Description: desc("taskdaemon/list_directory.md"), Params: []Param{
				{Name: "path", Default: ".", Description: worktree("Directory path") + " (default: .)"},
			}, Fixed: map[string]any{"respect_git_ignore": false}},
			{Core: "glob", Name: "glob", Description: desc("taskdaemon/glob.md"), Params: []Param{
				{Name: "pattern", Description: "Glob pattern to match"},
				{Name: "path", Description: "Base directory (default: worktree root)"},
			}, Fixed: map[string]any{"respect_git_ignore": false}},
			{Core: "grep", Name: "grep", Description: desc("taskdaemon/grep.md"), Params: []Param{
				{Name: "pattern", Description: "Regex pattern to search for"},
				{Name: "path", Description: "File or directory to search (default: worktree)"},
				{Name: "file_pattern", Core: "glob", Description: "Glob to filter files (e.g., *.rs)"},
				{Name: "context", Core: "-C", Default: 2, Description: "Lines of context around matches (default: 2)"},
			}, Fixed: map[string]any{"output_mode": "content", "-n": true}},
			{Core: "bash", Name: "run_command", Description: desc("taskdaemon/run_command.md"), Params: []Param{
				{Name: "command", Description: "Shell command to execute"},
				{Name: "timeout_ms", Core: "timeout", Description: "Timeout in milliseconds (default: {{.BashTimeoutMS}})"},
			}},
			// Coordination (the core's texts are the seed's).
			{Core: "query_loop", Name: "query_loop"},
			{Core: "share_data", Name: "share_data"},
			{Core: "complete_task", Name: "complete_task"},
		},
	}
}

// The seed's limits: glob lists at most 1,000 paths, grep shows at most
// 100 matches per file (rg --max-count=100); run_command's 30,000
// characters are Limits.BashOutputChars.
const (
	taskdaemonGlobMax = 1000
	taskdaemonGrepMax = 100
)

func renderTaskdaemon(r *Rendering, outputMax int) {
	if e := r.Err(); e != nil {
		if o, ok := e.Output.(*tools.BashOutput); ok && e.Code == tool.CommandFailed {
			r.Text("[" + e.Code.String() + "] " + taskdaemonCommand(o, outputMax))
			return
		}
		r.Text("[" + e.Code.String() + "] " + taskdaemonError(r, e))
		return
	}
	switch o := r.Out.(type) {
	case *tools.ReadOutput:
		if o.Kind == "image" {
			return
		}
		lines := make([]string, len(o.Lines))
		for i, l := range o.Lines {
			lines[i] = fmt.Sprintf("%6d│%s", o.StartLine+i, l)
		}
		r.Text(strings.Join(lines, "\n"))
	case *tools.WriteOutput:
		r.Text(fmt.Sprintf("Wrote %d bytes to %s", o.Bytes, givenPath(r, o.Path)))
	case *tools.EditOutput:
		r.Text(fmt.Sprintf("Replaced %d occurrence(s) in %s", o.Replacements, givenPath(r, o.Path)))
	case *tools.ListOutput:
		names := make([]string, len(o.Entries))
		for i, e := range o.Entries {
			names[i] = e.Name
			if e.Dir {
				names[i] += "/"
			}
		}
		sort.Strings(names)
		r.Text(strings.Join(names, "\n"))
	case *tools.GlobOutput:
		paths := make([]string, len(o.Paths))
		for i, p := range o.Paths {
			paths[i] = r.Rel(p)
		}
		sort.Strings(paths)
		if len(paths) > taskdaemonGlobMax {
			paths = paths[:taskdaemonGlobMax]
		}
		if len(paths) == 0 {
			r.Text("No matches found")
			return
		}
		r.Text(strings.Join(paths, "\n"))
	case *tools.GrepOutput:
		after := 0
		if in, ok := r.In.(tools.GrepInput); ok {
			after = max(in.After, in.Context)
		}
		lines := rgLines(o.Files, after > 0, after, taskdaemonGrepMax)
		if len(lines) == 0 {
			r.Text("No matches found")
			return
		}
		r.Text(strings.Join(lines, "\n") + "\n")
	case *tools.BashOutput:
		r.Text(taskdaemonCommand(o, outputMax))
	}
}

// givenPath is the path the call gave, as the seed echoes it.
func givenPath(r *Rendering, abs string) string {
	switch in := r.In.(type) {
	case tools.WriteInput:
		return in.Path
	case tools.EditInput:
		return in.Path
	}
	return r.Rel(abs)
}

// taskdaemonError is the seed's message (its ToolError texts and edit_file's
// three messages) where it has one, the core's otherwise.
func taskdaemonError(r *Rendering, e *tool.Error) string {
	switch e.Code {
	case tool.PathNotFound:
		if p := r.detail("path"); p != "" {
			return "File not found: " + r.Rel(p)
		}
	case tool.AccessDenied:
		if r.detail("roots") != "" && len(r.Roots) > 0 {
			return fmt.Sprintf("Path %s escapes worktree %s", r.detail("path"), r.Roots[0])
		}
	case tool.FileNotViewed:
		return "Must read_file before editing. Read the file first to see current content."
	case tool.StrReplaceNotFound:
		return "old_string not found in file. Make sure it matches exactly including whitespace."
	case tool.StrReplaceAmbiguous:
		return fmt.Sprintf("old_string found %s times. Use replace_all=true or provide more context.", r.detail("count"))
	}
	return e.Message
}

// taskdaemonCommand is run_command's result: stdout, then "\n\nSTDERR:\n"
// and stderr when both have something, cut at outputMax characters (the
// seed's 30,000 by default) with the seed's line.
func taskdaemonCommand(o *tools.BashOutput, outputMax int) string {
	var s string
	switch {
	case o.Stdout == "" && o.Stderr != "":
		s = o.Stderr
	case o.Stderr == "":
		s = o.Stdout
	default:
		s = o.Stdout + "\n\nSTDERR:\n" + o.Stderr
	}
	if utf8.RuneCountInString(s) > outputMax {
		total := int64(utf8.RuneCountInString(s))
		if o.Truncated {
			// The core kept the head and tail of a longer stream: count
			// what the command wrote.
			total = o.StdoutBytes + o.StderrBytes
			if o.StdoutBytes > 0 && o.StderrBytes > 0 {
				total += int64(len("\n\nSTDERR:\n"))
			}
		}
		s = cut(s, outputMax, "") + fmt.Sprintf("...\n[truncated, %d chars total]", total)
	}
	if o.CwdNote != "" {
		s += "\n[" + o.CwdNote + "]"
	}
	switch {
	case o.TimedOut:
		return fmt.Sprintf("Command timed out after %dms", o.TimeoutMS)
	case o.ExitCode != 0:
		return fmt.Sprintf("Exit code: %d\n%s", o.ExitCode, s)
	}
	return s
}
