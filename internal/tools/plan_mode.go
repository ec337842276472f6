package tools

import (
	"context"
	_ "embed"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"strings"

	"github.com/hands-dev/hands/tool"
)

//go:embed enter_plan_mode.md
var enterPlanModeDescription string

//go:embed exit_plan_mode.md
var exitPlanModeDescription string

// PlanMode is the session's permission mode as the plan tools change it
// (the permission policy of the session implements it).
type PlanMode interface {
	// EnterPlan switches to plan mode, remembering the mode before.
	EnterPlan() error
	// ExitPlan returns to the mode before plan mode and names it.
	ExitPlan() (string, error)
	// InPlan reports whether the session is in plan mode.
	InPlan() bool
	// PlanFile is the file plan mode lets the model write its plan to.
	PlanFile() string
}

// EnterPlanModeInput is the input of enter_plan_mode: nothing.
type EnterPlanModeInput struct{}

// EnterPlanModeOutput is what enter_plan_mode returns.
type EnterPlanModeOutput struct {
	// PlanFile is where the model may write its plan.
	PlanFile string `json:"plan_file"`
	// PlanExists reports that the plan file already has content.
	PlanExists bool `json:"plan_exists"`
}

// Content is the native text.
func (o *EnterPlanModeOutput) Content() []tool.Content {
	return []tool.Content{tool.Text(fmt.Sprintf("Entered plan mode: only read-only tools run until the user approves a plan. Explore the code, ask the user with ask_user_question where the choice is theirs, write your plan to %s (the only file you may write now) or pass it to exit_plan_mode as plan, then call exit_plan_mode for approval. Do not make changes until the plan is approved.", o.PlanFile))}
}

// EnterPlanMode returns the enter_plan_mode tool.
func EnterPlanMode() tool.Tool {
	return tool.New(tool.Spec[EnterPlanModeInput]{
		Name:        "enter_plan_mode",
		Title:       "Enter plan mode",
		Description: enterPlanModeDescription,
		// It changes the session's mode, never a file: it must run in
		// plan mode and under read-only policies.
		ReadOnly:        true,
		Idempotent:      true,
		ConcurrencySafe: func(EnterPlanModeInput) bool { return false },
	}, func(_ context.Context, env *tool.Env, _ EnterPlanModeInput) (*EnterPlanModeOutput, error) {
		pm, err := planMode(env)
		if err != nil {
			return nil, err
		}
		if err := pm.EnterPlan(); err != nil {
			return nil, toolErr(tool.PermissionDenied, "cannot enter plan mode: %v", err)
		}
		out := &EnterPlanModeOutput{PlanFile: pm.PlanFile()}
		if plan, _ := readPlan(stateOf(env), out.PlanFile); plan != "" {
			out.PlanExists = true
		}
		return out, nil
	})
}

func planMode(env *tool.Env) (PlanMode, *tool.Error) {
	st := stateOf(env)
	if st.Plan == nil {
		return nil, toolErr(tool.InvalidInput, "this session has no permission modes, so there is no plan mode to enter or leave")
	}
	return st.Plan, nil
}

// AllowedPrompt is a kind of shell command a plan will need.
type AllowedPrompt struct {
	Tool   string `json:"tool" jsonschema:"the tool this prompt applies to"`
	Prompt string `json:"prompt" jsonschema:"semantic description of the action, e.g. \"run tests\", \"install dependencies\""`
}

// ExitPlanModeInput is the input of exit_plan_mode.
type ExitPlanModeInput struct {
	Plan           string          `json:"plan,omitempty" jsonschema:"the plan, in markdown; leave it out when you wrote it to the plan file"`
	AllowedPrompts []AllowedPrompt `json:"allowed_prompts,omitempty" jsonschema:"prompt-based permissions needed to implement the plan: categories of actions, not specific commands"`
}

// ExitPlanModeOutput is what an approved exit_plan_mode returns.
type ExitPlanModeOutput struct {
	// Plan is the approved plan; PlanFile where it is kept.
	Plan     string `json:"plan"`
	PlanFile string `json:"plan_file"`
	// Mode is the permission mode the session returned to.
	Mode string `json:"mode"`
}

// Content is the native text.
func (o *ExitPlanModeOutput) Content() []tool.Content {
	if o.Plan == "" {
		return []tool.Content{tool.Text(fmt.Sprintf("The user approved leaving plan mode; the session is back in %s mode and you can start making changes.", o.Mode))}
	}
	return []tool.Content{tool.Text(fmt.Sprintf("The user approved your plan; the session is back in %s mode and you can start making changes. The plan is kept in %s.\n\nApproved plan:\n%s", o.Mode, o.PlanFile, o.Plan))}
}

// Rejection details: a profile words a rejected plan or declined questions
// from these.
const (
	// DetailRejected is set (to "true") on the error of a prompt the user
	// rejected or dismissed.
	DetailRejected = "rejected"
	// DetailFeedback holds what the user wrote when rejecting.
	DetailFeedback = "feedback"
)

// ExitPlanMode returns the exit_plan_mode tool.
func ExitPlanMode() tool.Tool {
	return tool.New(tool.Spec[ExitPlanModeInput]{
		Name:            "exit_plan_mode",
		Title:           "Present the plan for approval",
		Description:     exitPlanModeDescription,
		ReadOnly:        true,
		AsksUser:        true,
		ConcurrencySafe: func(ExitPlanModeInput) bool { return false },
	}, func(ctx context.Context, env *tool.Env, in ExitPlanModeInput) (*ExitPlanModeOutput, error) {
		pm, terr := planMode(env)
		if terr != nil {
			return nil, terr
		}
		if !pm.InPlan() {
			return nil, toolErr(tool.InvalidInput, "the session is not in plan mode, so there is no plan to approve; call %s first, or go ahead with the task", tool.ToolName("enter_plan_mode"))
		}
		st := stateOf(env)
		plan := strings.TrimSpace(in.Plan)
		file := pm.PlanFile()
		if plan == "" {
			var terr *tool.Error
			if plan, terr = readPlan(st, file); terr != nil {
				return nil, terr
			}
			if plan == "" && !st.Behavior.ExitPlanWithoutPlan {
				return nil, toolErr(tool.InvalidInput, "no plan to present: write your plan to %s, or give it as %s", file, param("plan"))
			}
		} else if terr := writePlan(st, file, plan); terr != nil {
			return nil, terr
		}
		msg := "The assistant has written up a plan and is ready to carry it out. Approve it to leave plan mode, or reject it and say what to change."
		if plan == "" {
			msg = "The assistant wants to leave plan mode without a written plan. Approve to leave plan mode, or reject it and say what to do instead."
		}
		if len(in.AllowedPrompts) > 0 {
			var ps []string
			for _, p := range in.AllowedPrompts {
				ps = append(ps, fmt.Sprintf("%s: %s", p.Tool, p.Prompt))
			}
			msg += "\n\nThe plan will need permission to: " + strings.Join(ps, "; ")
		}
		reply, err := ask(ctx, env, tool.Prompt{Message: msg, Plan: plan})
		if err != nil {
			if errors.Is(err, tool.ErrNoUser) {
				return nil, toolErr(tool.PermissionDenied, "the plan needs the user's approval and %v; the session stays in plan mode", err)
			}
			return nil, err
		}
		if !reply.Accepted {
			e := toolErr(tool.PermissionDenied, "the user rejected the plan; the session stays in plan mode. %s", feedbackText(reply.Feedback)).
				With(DetailRejected, "true")
			if reply.Feedback != "" {
				e = e.With(DetailFeedback, reply.Feedback)
			}
			return nil, e
		}
		mode, xerr := pm.ExitPlan()
		if xerr != nil {
			return nil, toolErr(tool.InvalidInput, "%v", xerr)
		}
		return &ExitPlanModeOutput{Plan: plan, PlanFile: file, Mode: mode}, nil
	})
}

// readPlan reads the plan file through the sandbox ("" when it does not
// exist), so that a link planted in its place reads nothing outside the
// roots.
func readPlan(st *State, file string) (string, *tool.Error) {
	p, err := st.FS.Resolve(st.Cwd(), file)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return "", nil
		}
		return "", fsErr(err, "read", file)
	}
	f, err := st.FS.Open(p)
	if errors.Is(err, fs.ErrNotExist) {
		return "", nil
	}
	if err != nil {
		return "", fsErr(err, "read", file)
	}
	defer f.Close()
	b, err := io.ReadAll(io.LimitReader(f, int64(st.Limits.MaxFileSize)))
	if err != nil {
		return "", fsErr(err, "read", file)
	}
	return strings.TrimSpace(string(b)), nil
}

// writePlan keeps a plan given as a parameter in the plan file.
func writePlan(st *State, file, plan string) *tool.Error {
	p, err := st.FS.Resolve(st.Cwd(), file)
	if err == nil {
		_, err = st.FS.WriteFile(p, []byte(plan+"\n"), 0o644)
	}
	if err != nil {
		return fsErr(err, "write", file)
	}
	return nil
}

func feedbackText(f string) string {
	if f == "" {
		return "The user gave no feedback: stop and wait for the user to say how to proceed."
	}
	return "The user said: " + f
}

// ask asks the session's user; errors other than a cancellation mean no
// user could be asked.
func ask(ctx context.Context, env *tool.Env, p tool.Prompt) (tool.Reply, error) {
	if env.Ask == nil {
		return tool.Reply{}, fmt.Errorf("%w: the host has no way to ask the user", tool.ErrNoUser)
	}
	r, err := env.Ask(ctx, p)
	if err != nil && ctx.Err() == nil && !errors.Is(err, tool.ErrNoUser) && !isPending(err) {
		return r, fmt.Errorf("%w: %v", tool.ErrNoUser, err)
	}
	return r, err
}

// isPending reports whether err asks the executor to stop and wait for
// the host to collect the user's answer (an MCP server's input request).
func isPending(err error) bool {
	var p interface{ Pending() bool }
	return errors.As(err, &p) && p.Pending()
}
