package tools

import (
	"context"
	_ "embed"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/hands-dev/hands/internal/jobs"
	"github.com/hands-dev/hands/internal/sandbox/confine"
	"github.com/hands-dev/hands/tool"
)

//go:embed bash.md
var bashDescription string

// BashInput is the input of the bash tool.
type BashInput struct {
	Command     string `json:"command" jsonschema:"the shell command to run"`
	Timeout     int    `json:"timeout,omitzero" jsonschema:"timeout in milliseconds; default {{.BashTimeoutMS}}, at most {{.BashMaxTimeoutMS}}"`
	Description string `json:"description,omitempty" jsonschema:"a short description of what the command does"`
	// Directory runs this one command elsewhere than the working directory.
	Directory       string `json:"directory,omitempty" jsonschema:"run this command in this directory (absolute, or relative to the working directory) without moving the working directory"`
	RunInBackground bool   `json:"run_in_background,omitzero" jsonschema:"start the command as a background job and return its id at once"`
	// DangerouslyDisableSandbox asks to run without confinement; honoured
	// only when the server allows it.
	DangerouslyDisableSandbox bool `json:"dangerously_disable_sandbox,omitzero" jsonschema:"run without the write confinement (only if the server allows it)"`
	resolved
}

// ShellCommand returns the command line, for permission rules
// (tool.Commander).
func (in BashInput) ShellCommand() string { return in.Command }

// Background reports whether the command runs as a background job.
func (in BashInput) Background() bool { return in.RunInBackground }

// BashOutput is what the bash tool returns.
type BashOutput struct {
	Command   string `json:"command"`
	Directory string `json:"directory"`
	// Output is stdout and stderr together, cut to the output limit.
	Output string `json:"output,omitempty"`
	// Stdout and Stderr are the streams apart (profiles that show them
	// apart run the session with separate streams).
	Stdout string `json:"stdout,omitempty"`
	Stderr string `json:"stderr,omitempty"`
	// StdoutBytes and StderrBytes are the streams' whole sizes, cut or not.
	StdoutBytes int64  `json:"stdout_bytes,omitzero"`
	StderrBytes int64  `json:"stderr_bytes,omitzero"`
	ExitCode    int    `json:"exit_code"`
	Signal      string `json:"signal,omitempty"`
	TimedOut    bool   `json:"timed_out,omitzero"`
	// TimeoutMS is the timeout the command ran under.
	TimeoutMS int64 `json:"timeout_ms"`
	// OutputBytes is the size of the whole merged output, cut or not.
	OutputBytes int64 `json:"output_bytes,omitzero"`
	// Truncated reports that Output was cut; FullOutputPath holds all of it.
	Truncated      bool   `json:"truncated,omitzero"`
	FullOutputPath string `json:"full_output_path,omitempty"`
	// Cwd is the working directory after the command; CwdNote says when it
	// fell back because the old one vanished.
	Cwd     string `json:"cwd"`
	CwdNote string `json:"cwd_note,omitempty"`
	PGID    int    `json:"pgid,omitzero"`
	// TaskID is the job's id when the command was started in the background,
	// or went on there when it outlived its timeout (MovedToBackground,
	// Behavior.TimeoutToBackground); TaskFile is the file its whole output
	// is written to as it runs, when it has one.
	TaskID            string `json:"task_id,omitempty"`
	TaskFile          string `json:"task_file,omitempty"`
	MovedToBackground bool   `json:"moved_to_background,omitzero"`
	DurationMS        int64  `json:"duration_ms"`
}

// Bash returns the bash tool.
func Bash(lim Limits) tool.Tool {
	return tool.New(tool.Spec[BashInput]{
		Name:        "bash",
		Title:       "Run a shell command",
		Description: bashDescription,
		Destructive: true,
		OpenWorld:   true,
		ConcurrencySafe: func(in BashInput) bool {
			return !in.RunInBackground && in.Directory == "" && jobs.IsReadOnly(in.Command)
		},
		MaxResultChars: lim.BashOutputChars + 10000,
		Resolve: func(_ context.Context, env *tool.Env, in BashInput) (BashInput, error) {
			if in.Directory == "" {
				return in, nil
			}
			p, terr := resolve(stateOf(env), in.Directory)
			if terr != nil {
				return in, terr.With("command", in.Command).With("directory", in.Directory)
			}
			in.at = p
			return in, nil
		},
		Validate: validateBash,
	}, runBash)
}

func validateBash(_ context.Context, env *tool.Env, in BashInput) (BashInput, error) {
	st := stateOf(env)
	if strings.TrimSpace(in.Command) == "" {
		return in, toolErr(tool.BashEmptyCommand, "command is empty; give the shell command to run, e.g. \"ls -la\"").With("command", in.Command)
	}
	if st.StartJobs == nil {
		return in, toolErr(tool.BashStartFailed, "this session has no shell")
	}
	if in.Timeout < 0 || time.Duration(in.Timeout)*time.Millisecond > st.Limits.BashMaxTimeout {
		return in, toolErr(tool.InvalidInput, "%s %d ms is out of range; give 1 to %d milliseconds, or leave it out for %d", param("timeout"), in.Timeout, st.Limits.BashMaxTimeout.Milliseconds(), st.Limits.BashTimeout.Milliseconds()).With("timeout", in.Timeout)
	}
	if in.DangerouslyDisableSandbox && !st.Behavior.AllowUnsandboxed {
		return in, toolErr(tool.PermissionDenied, "this server does not allow running commands outside the sandbox; run the command without %s", param("dangerously_disable_sandbox"))
	}
	if st.Behavior.RejectDollarParen && strings.Contains(in.Command, "$(") {
		return in, toolErr(tool.CommandRejected, "command %q contains $(, which is not allowed; run the inner command first and use its output", in.Command).With("command", in.Command)
	}
	if st.Behavior.RejectSubstitution {
		if found, _ := confine.HasCommandSubstitution(in.Command); found {
			return in, toolErr(tool.CommandRejected, "command %q uses command substitution ($(...), backticks or <(...)), which is not allowed; run the inner command first and use its output", in.Command).With("command", in.Command)
		}
	}
	return in, nil
}

func runBash(ctx context.Context, env *tool.Env, in BashInput) (*BashOutput, error) {
	st := stateOf(env)
	timeout := st.Limits.BashTimeout
	if in.Timeout > 0 {
		timeout = time.Duration(in.Timeout) * time.Millisecond
	}
	opts := jobs.Options{Unconfined: in.DangerouslyDisableSandbox}
	if in.Directory != "" {
		p := in.at
		if !p.Exists {
			return nil, toolErr(tool.PathNotFound, "directory %s does not exist", p.Abs).With("path", p.Abs).With("command", in.Command)
		}
		if fi, err := st.FS.Stat(p); err == nil && !fi.IsDir() {
			return nil, toolErr(tool.InvalidInput, "%s %s is a file, not a directory; give the directory to run the command in", param("directory"), p.Abs).
				With("path", p.Abs).With("kind", "file").With("command", in.Command)
		}
		opts.Dir = p.Abs
	} else if st.Behavior.FreshShell {
		opts.Dir = st.cwd
	}
	m, err := st.Jobs()
	if err != nil {
		return nil, jobErr(err, in.Command, st.Limits.MaxJobs)
	}
	out := &BashOutput{Command: in.Command, Directory: m.Cwd(), TimeoutMS: timeout.Milliseconds()}
	if opts.Dir != "" {
		out.Directory = opts.Dir
	}
	if in.RunInBackground {
		id, err := m.StartWith(in.Command, timeout, opts)
		if err != nil {
			return nil, jobErr(err, in.Command, st.Limits.MaxJobs)
		}
		out.TaskID, out.Cwd = id, m.Cwd()
		out.TaskFile, _ = m.OutputFile(id)
		st.noteTask(id, in.Command)
		return out, nil
	}
	opts.DetachOnTimeout = st.Behavior.TimeoutToBackground
	opts.Tail = &jobs.Tail{}
	rep := startProgress(ctx, env, 0, func(p *tool.Progress) {
		p.Line = opts.Tail.LastLine(tool.MaxProgressLine)
		p.Message = withLine(seconds(p.Elapsed), p.Line)
	})
	res, err := m.RunWith(ctx, in.Command, timeout, opts)
	if res == nil {
		rep.finish(nil)
		return nil, jobErr(err, in.Command, st.Limits.MaxJobs)
	}
	rep.finish(func(p *tool.Progress) {
		p.Line = opts.Tail.LastLine(tool.MaxProgressLine)
		p.Message = withLine(commandEnd(res), p.Line)
	})
	if err != nil && ctx.Err() != nil {
		return nil, err
	}
	out.Output, out.OutputBytes = res.Merged.String(), res.Merged.Size
	out.Stdout, out.Stderr = res.Stdout.String(), res.Stderr.String()
	out.StdoutBytes, out.StderrBytes = res.Stdout.Size, res.Stderr.Size
	out.ExitCode, out.Signal, out.TimedOut = res.ExitCode, res.Signal, res.TimedOut
	out.Truncated = res.Merged.Truncated() || res.Stdout.Truncated() || res.Stderr.Truncated()
	out.FullOutputPath = firstNonEmpty(res.Merged.Path, res.Stdout.Path, res.Stderr.Path)
	out.Cwd, out.CwdNote, out.PGID = res.Cwd, res.CwdReset, res.PGID
	out.DurationMS = res.Duration.Milliseconds()
	if res.JobID != "" {
		out.TaskID, out.TaskFile, out.MovedToBackground = res.JobID, res.JobFile, true
		st.noteTask(res.JobID, in.Command)
		return out, nil
	}
	if st.Behavior.CommandFailureIsError && (out.TimedOut || out.ExitCode != 0) {
		return nil, commandFailed(out)
	}
	return out, nil
}

// commandEnd says how a foreground command ended, for its last progress
// report.
func commandEnd(res *jobs.Output) string {
	switch {
	case res.JobID != "":
		return fmt.Sprintf("moved to the background as %s after %s", res.JobID, seconds(res.Duration))
	case res.TimedOut:
		return "timed out after " + seconds(res.Duration)
	case res.Signal != "":
		return fmt.Sprintf("killed by %s after %s", res.Signal, seconds(res.Duration))
	}
	return fmt.Sprintf("exit code %d after %s", res.ExitCode, seconds(res.Duration))
}

// commandFailed is the error of a command that exited non-zero or timed
// out, in a session whose Behavior makes that an error. Its Output is the
// command's result, which profiles render in their words.
func commandFailed(o *BashOutput) *tool.Error {
	var te *tool.Error
	if o.TimedOut {
		te = toolErr(tool.CommandFailed, "the command timed out after %d ms", o.TimeoutMS)
	} else {
		te = toolErr(tool.CommandFailed, "the command exited with status %d", o.ExitCode)
	}
	if o.Output != "" {
		te.Appendf("; its output:\n%s", o.Output)
	}
	te = te.With("exit_code", o.ExitCode).With("timed_out", o.TimedOut).With("command", o.Command)
	te.Output = o
	return te
}

func firstNonEmpty(s ...string) string {
	for _, x := range s {
		if x != "" {
			return x
		}
	}
	return ""
}

// jobErr maps an engine error to a coded one.
func jobErr(err error, command string, maxJobs int) *tool.Error {
	switch {
	case errors.Is(err, jobs.ErrLimit):
		return toolErr(tool.BashTaskLimit, "%d background tasks are already running, the most a session may run; wait for one with %s or stop one with %s, then try again", maxJobs, tool.ToolName("task_output"), tool.ToolName("task_kill"))
	case errors.Is(err, jobs.ErrNotFound):
		return toolErr(tool.BashTaskNotFound, "%v", err)
	case errors.Is(err, jobs.ErrClosed):
		return toolErr(tool.BashStartFailed, "the session is closed; no command can start")
	}
	return toolErr(tool.BashStartFailed, "could not start the shell for %q: %v", command, err).With("command", command)
}

// Content renders the output as the native profile shows it.
func (o *BashOutput) Content() []tool.Content {
	if o.TaskID != "" {
		how := "started background task"
		if o.MovedToBackground {
			how = fmt.Sprintf("the command outlived its %d ms timeout and goes on as background task", o.TimeoutMS)
		}
		return []tool.Content{tool.Text(fmt.Sprintf("%s %s: %s\nread its output with task_output {\"task_id\":%q}; stop it with task_kill", how, o.TaskID, o.Command, o.TaskID))}
	}
	var b strings.Builder
	if o.Output == "" {
		b.WriteString("(no output)")
	} else {
		b.WriteString(strings.TrimSuffix(o.Output, "\n"))
	}
	b.WriteString("\n\n")
	switch {
	case o.TimedOut:
		fmt.Fprintf(&b, "[timed out after %d ms; the process group was stopped and the output so far is above]\n", o.TimeoutMS)
	case o.Signal != "":
		fmt.Fprintf(&b, "[exit code: %d, killed by %s]\n", o.ExitCode, o.Signal)
	default:
		fmt.Fprintf(&b, "[exit code: %d]\n", o.ExitCode)
	}
	if o.CwdNote != "" {
		fmt.Fprintf(&b, "[%s]\n", o.CwdNote)
	}
	return []tool.Content{tool.Text(strings.TrimSuffix(b.String(), "\n"))}
}
