package tools

import (
	"context"
	_ "embed"
	"errors"
	"fmt"
	"strings"

	"github.com/hands-dev/hands/internal/jobs"
	"github.com/hands-dev/hands/tool"
)

//go:embed task_kill.md
var taskKillDescription string

// TaskKillInput is the input of task_kill.
type TaskKillInput struct {
	TaskID string `json:"task_id" jsonschema:"the id of the background task to stop"`
}

// TaskKillOutput is what task_kill returns.
type TaskKillOutput struct {
	TaskID string `json:"task_id"`
	// Command is the task's command.
	Command string `json:"command,omitempty"`
	// AlreadyFinished reports that the task had ended before the call.
	AlreadyFinished bool   `json:"already_finished,omitzero"`
	Status          string `json:"status"`
}

// TaskKill returns the task_kill tool.
func TaskKill() tool.Tool {
	return tool.New(tool.Spec[TaskKillInput]{
		Name:        "task_kill",
		Title:       "Stop a background task",
		Description: taskKillDescription,
		Destructive: true,
		Idempotent:  true,
		Validate: func(_ context.Context, env *tool.Env, in TaskKillInput) (TaskKillInput, error) {
			if strings.TrimSpace(in.TaskID) == "" {
				return in, toolErr(tool.InvalidInput, "%s is empty; give the id that %s returned for a background command", param("task_id"), tool.ToolName("bash"))
			}
			if stateOf(env).StartJobs == nil && stateOf(env).Agents == nil {
				return in, toolErr(tool.BashTaskNotFound, "no background task %q: this session has no shell", in.TaskID)
			}
			return in, nil
		},
	}, func(ctx context.Context, env *tool.Env, in TaskKillInput) (*TaskKillOutput, error) {
		st := stateOf(env)
		if st.Agents != nil {
			if b, ok := st.Agents.Kill(in.TaskID); ok {
				return &TaskKillOutput{TaskID: in.TaskID, Command: "agent: " + b.Description, Status: b.Status, AlreadyFinished: b.Status != string(jobs.Killed)}, nil
			}
		}
		m := st.startedJobs()
		if m == nil {
			return nil, taskErr(jobs.ErrNotFound, in.TaskID)
		}
		err := m.Kill(in.TaskID)
		out := &TaskKillOutput{TaskID: in.TaskID, Command: st.taskCommand(in.TaskID), Status: string(jobs.Killed)}
		switch {
		case err == nil:
		case errors.Is(err, jobs.ErrNotRunning):
			out.AlreadyFinished = true
			if res, oerr := m.Output(ctx, in.TaskID, false, 0); oerr == nil {
				out.Status = string(res.Status)
			}
		default:
			return nil, taskErr(err, in.TaskID)
		}
		return out, nil
	})
}

func errorsIsNotFound(err error) bool { return errors.Is(err, jobs.ErrNotFound) }

// Content renders the output as the native profile shows it.
func (o *TaskKillOutput) Content() []tool.Content {
	if o.AlreadyFinished {
		return []tool.Content{tool.Text(fmt.Sprintf("task %s had already finished (%s); nothing to stop", o.TaskID, o.Status))}
	}
	return []tool.Content{tool.Text(fmt.Sprintf("task %s killed (its whole process group)", o.TaskID))}
}
