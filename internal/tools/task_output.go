package tools

import (
	"context"
	_ "embed"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/hands-dev/hands/internal/jobs"
	"github.com/hands-dev/hands/tool"
)

//go:embed task_output.md
var taskOutputDescription string

// TaskOutputInput is the input of task_output.
type TaskOutputInput struct {
	TaskID  string `json:"task_id" jsonschema:"the id bash returned for the background task"`
	Block   *bool  `json:"block,omitempty" jsonschema:"wait for the task to finish; default true"`
	Timeout int    `json:"timeout,omitzero" jsonschema:"how long to wait in milliseconds when blocking; default {{.TaskWaitMS}}, at most {{.BashMaxTimeoutMS}}"`
}

// TaskOutputOutput is what task_output returns.
type TaskOutputOutput struct {
	TaskID  string `json:"task_id"`
	Command string `json:"command"`
	// Status is running, exited, killed or timed out.
	Status string `json:"status"`
	// ExitCode is set once the task finished.
	ExitCode *int   `json:"exit_code,omitempty"`
	Signal   string `json:"signal,omitempty"`
	// Output is what the task wrote since the previous read (since it
	// started, under Behavior.TaskOutputWhole).
	Output         string `json:"output"`
	Truncated      bool   `json:"truncated,omitzero"`
	FullOutputPath string `json:"full_output_path,omitempty"`
	CwdNote        string `json:"cwd_note,omitempty"`
	DurationMS     int64  `json:"duration_ms"`
	// Agent marks a background agent's output: Output is then its
	// transcript (its output file, whole), Result its answer once it has
	// completed and Error why it failed.
	Agent  bool   `json:"agent,omitzero"`
	Result string `json:"result,omitempty"`
	Error  string `json:"error,omitempty"`
}

// TaskOutput returns the task_output tool.
func TaskOutput() tool.Tool {
	return tool.New(tool.Spec[TaskOutputInput]{
		Name:        "task_output",
		Title:       "Read a background task's output",
		Description: taskOutputDescription,
		ReadOnly:    true,
		Validate: func(_ context.Context, env *tool.Env, in TaskOutputInput) (TaskOutputInput, error) {
			st := stateOf(env)
			if strings.TrimSpace(in.TaskID) == "" {
				return in, toolErr(tool.InvalidInput, "%s is empty; give the id that %s returned for a background command", param("task_id"), tool.ToolName("bash"))
			}
			if in.Timeout < 0 || time.Duration(in.Timeout)*time.Millisecond > st.Limits.BashMaxTimeout {
				return in, toolErr(tool.InvalidInput, "%s %d ms is out of range; give 0 to %d milliseconds", param("timeout"), in.Timeout, st.Limits.BashMaxTimeout.Milliseconds())
			}
			if st.StartJobs == nil && st.Agents == nil {
				return in, toolErr(tool.BashTaskNotFound, "no background task %q: this session has no shell", in.TaskID)
			}
			return in, nil
		},
	}, runTaskOutput)
}

func runTaskOutput(ctx context.Context, env *tool.Env, in TaskOutputInput) (*TaskOutputOutput, error) {
	st := stateOf(env)
	block := in.Block == nil || *in.Block
	wait := st.Limits.TaskWait
	if in.Timeout > 0 {
		wait = time.Duration(in.Timeout) * time.Millisecond
	}
	if st.Agents != nil {
		if b, ok := st.Agents.Background(ctx, in.TaskID, block, wait); ok {
			return agentOutput(in.TaskID, b)
		}
	}
	m := st.startedJobs()
	if m == nil {
		return nil, taskErr(jobs.ErrNotFound, in.TaskID)
	}
	read := m.Output
	if st.Behavior.TaskOutputWhole {
		read = m.OutputAll
	}
	var rep *reporter
	if block {
		rep = startProgress(ctx, env, 0, func(p *tool.Progress) {
			p.Line, _ = m.LastLine(in.TaskID, tool.MaxProgressLine)
			p.Message = withLine(fmt.Sprintf("waiting for %s (%s)", in.TaskID, seconds(p.Elapsed)), p.Line)
		})
	}
	res, err := read(ctx, in.TaskID, block, wait)
	if err != nil {
		rep.finish(nil)
		if ctx.Err() != nil {
			return nil, err
		}
		return nil, taskErr(err, in.TaskID)
	}
	out := &TaskOutputOutput{
		TaskID: res.ID, Command: res.Command, Status: string(res.Status), Signal: res.Signal,
		Output: res.Output.String(), Truncated: res.Output.Truncated(), FullOutputPath: res.Output.Path,
		CwdNote: res.CwdReset, DurationMS: res.Duration.Milliseconds(),
	}
	if res.Status != jobs.Running {
		code := res.ExitCode
		out.ExitCode = &code
	}
	rep.finish(func(p *tool.Progress) {
		p.Line, _ = m.LastLine(in.TaskID, tool.MaxProgressLine)
		p.Message = withLine(fmt.Sprintf("%s %s after waiting %s", in.TaskID, jobEnd(res), seconds(p.Elapsed)), p.Line)
	})
	return out, nil
}

// maxAgentOutput bounds what task_output reads of an agent's transcript;
// past it, the transcript's last part is shown.
const maxAgentOutput = 8 << 20

// agentOutput is a background agent's state and transcript.
func agentOutput(id string, b BackgroundAgent) (*TaskOutputOutput, error) {
	out := &TaskOutputOutput{TaskID: id, Command: "agent: " + b.Description, Status: b.Status, DurationMS: b.Duration.Milliseconds(),
		Agent: true, Result: b.Text, Error: b.Error, FullOutputPath: b.OutputFile}
	if b.OutputFile == "" {
		return out, nil
	}
	f, err := os.Open(b.OutputFile)
	if err != nil {
		return nil, toolErr(tool.IOError, "could not read agent %s's output file: %v", id, err).With("task_id", id)
	}
	defer f.Close()
	fi, err := f.Stat()
	if err == nil && fi.Size() > maxAgentOutput {
		_, err = f.Seek(fi.Size()-maxAgentOutput, io.SeekStart)
		out.Truncated = true
	}
	var data []byte
	if err == nil {
		data, err = io.ReadAll(io.LimitReader(f, maxAgentOutput))
	}
	if err != nil {
		return nil, toolErr(tool.IOError, "could not read agent %s's output file: %v", id, err).With("task_id", id)
	}
	out.Output = string(data)
	return out, nil
}

// jobEnd says where a job stands once task_output has waited for it.
func jobEnd(res *jobs.JobOutput) string {
	switch {
	case res.Status == jobs.Running:
		return "is still running"
	case res.Signal != "":
		return fmt.Sprintf("%s (%s)", res.Status, res.Signal)
	case res.Status == jobs.Exited:
		return fmt.Sprintf("exited with code %d", res.ExitCode)
	}
	return string(res.Status)
}

// taskErr maps a job lookup error to a coded one.
func taskErr(err error, id string) *tool.Error {
	if errorsIsNotFound(err) {
		return toolErr(tool.BashTaskNotFound, "no background task %q in this session; use the %s that %s returned when it started the command", id, param("task_id"), tool.ToolName("bash")).With("task_id", id)
	}
	return toolErr(tool.IOError, "could not read task %s: %v", id, err).With("task_id", id)
}

// Content renders the output as the native profile shows it.
func (o *TaskOutputOutput) Content() []tool.Content {
	var b strings.Builder
	fmt.Fprintf(&b, "task %s (%s): %s", o.TaskID, o.Command, o.Status)
	if o.ExitCode != nil {
		fmt.Fprintf(&b, ", exit code %d", *o.ExitCode)
	}
	if o.Signal != "" {
		fmt.Fprintf(&b, ", killed by %s", o.Signal)
	}
	if o.Error != "" {
		fmt.Fprintf(&b, ": %s", o.Error)
	}
	b.WriteString("\n")
	if o.CwdNote != "" {
		fmt.Fprintf(&b, "[%s]\n", o.CwdNote)
	}
	if o.Agent {
		// The answer; the transcript stays in its file.
		fmt.Fprintf(&b, "transcript: %s\n", o.FullOutputPath)
		if o.Result != "" {
			b.WriteString(o.Result)
		} else {
			b.WriteString("(no answer yet)")
		}
		return []tool.Content{tool.Text(b.String())}
	}
	if o.Output == "" {
		b.WriteString("(no new output)")
	} else {
		b.WriteString(strings.TrimSuffix(o.Output, "\n"))
	}
	return []tool.Content{tool.Text(b.String())}
}
