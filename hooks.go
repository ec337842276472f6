package hands

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"os"
	"regexp"
	"strings"
	"time"

	"github.com/hands-dev/hands/internal/jobs"
	"github.com/hands-dev/hands/tool"
)

// HookCommand is an external command run around tool calls, with Claude
// Code's hook contract: the command (run with sh -c in the session's working
// directory) gets a JSON object on stdin — session_id, cwd,
// hook_event_name, tool_name, tool_input, and for PostToolUse tool_response
// — and answers with its exit status and stdout:
//
//   - exit 2 blocks a PreToolUse call, its stderr the reason the model reads;
//     for PostToolUse and PostToolUseFailure, the stderr is added to the
//     result for the model;
//   - exit 0 with JSON on stdout may decide: {"decision":"block","reason":…},
//     {"continue":false,"stopReason":…}, or {"hookSpecificOutput":
//     {"permissionDecision":"deny"|"allow"|"ask","permissionDecisionReason":…,
//     "updatedInput":{…}}}; "ask" blocks, as a hook cannot ask the user here;
//   - any other status, or a timeout, is a non-blocking failure, logged.
type HookCommand struct {
	// Event is PreToolUse, PostToolUse or PostToolUseFailure.
	Event string `json:"event"`
	// Matcher is a regular expression matched against the whole tool name,
	// as the profile names it; "" or "*" matches every tool.
	Matcher string `json:"matcher,omitempty"`
	// Command is the shell command to run. Every program it names is
	// resolved to an absolute path when the Runtime is made (a relative
	// path against the first root, a bare name on PATH;
	// $CLAUDE_PROJECT_DIR is the first root), and a program or script
	// operand inside a root or another tree shell commands can write is
	// refused then: a command could rewrite it and have the hook, which
	// runs unconfined, run it. Keep hook scripts outside the roots.
	Command string `json:"command"`
	// Timeout bounds the command; 0 means 60 seconds. The command runs in
	// a process group of its own: on timeout the whole group gets SIGTERM,
	// then SIGKILL two seconds later, and whatever the command leaves
	// running when it exits is ended the same way.
	Timeout time.Duration `json:"timeout,omitempty"`
}

// defaultHookTimeout is Claude Code's default.
const defaultHookTimeout = 60 * time.Second

// hookEvents are the events a HookCommand may name.
var hookEvents = []string{"PreToolUse", "PostToolUse", "PostToolUseFailure"}

// commandHooks turns hook commands into executor hooks.
// Each command is resolved first (resolveHookCommand): base is the
// directory relative programs are found in, writable the trees shell
// commands can write, where no program a hook runs may lie.
func commandHooks(cmds []HookCommand, log *slog.Logger, base string, writable []string) (tool.Hooks, error) {
	var h tool.Hooks
	if len(cmds) > 0 && !jobs.GroupsSupported {
		return h, fmt.Errorf("hook commands: %w", jobs.ErrUnsupported)
	}
	for i, c := range cmds {
		if strings.TrimSpace(c.Command) == "" {
			return h, fmt.Errorf("hook %d: empty command", i)
		}
		resolved, err := resolveHookCommand(c.Command, base, writable)
		if err != nil {
			return h, fmt.Errorf("hook %d: %w", i, err)
		}
		c.Command = resolved
		expr := c.Matcher
		if expr == "" || expr == "*" {
			expr = ".*"
		}
		m, err := regexp.Compile("^(?:" + expr + ")$")
		if err != nil {
			return h, fmt.Errorf("hook %d: matcher %q is not a valid regular expression: %v", i, c.Matcher, err)
		}
		hc := &hookRunner{HookCommand: c, match: m, log: log}
		switch c.Event {
		case "PreToolUse":
			h.PreToolUse = append(h.PreToolUse, hc.pre)
		case "PostToolUse":
			h.PostToolUse = append(h.PostToolUse, hc.post)
		case "PostToolUseFailure":
			h.PostToolUseFailure = append(h.PostToolUseFailure, hc.post)
		default:
			return h, fmt.Errorf("hook %d: unknown event %q; use one of %s", i, c.Event, strings.Join(hookEvents, ", "))
		}
	}
	return h, nil
}

type hookRunner struct {
	HookCommand
	match *regexp.Regexp
	log   *slog.Logger
}

// hookInput is what a hook command reads on stdin.
type hookInput struct {
	SessionID     string          `json:"session_id"`
	Cwd           string          `json:"cwd"`
	HookEventName string          `json:"hook_event_name"`
	ToolName      string          `json:"tool_name"`
	ToolInput     json.RawMessage `json:"tool_input"`
	ToolResponse  any             `json:"tool_response,omitempty"`
}

// hookOutput is what a hook command may print on stdout.
type hookOutput struct {
	Continue           *bool  `json:"continue"`
	StopReason         string `json:"stopReason"`
	Decision           string `json:"decision"`
	Reason             string `json:"reason"`
	HookSpecificOutput struct {
		PermissionDecision       string          `json:"permissionDecision"`
		PermissionDecisionReason string          `json:"permissionDecisionReason"`
		UpdatedInput             json.RawMessage `json:"updatedInput"`
	} `json:"hookSpecificOutput"`
}

func (h *hookRunner) pre(ctx context.Context, env *tool.Env, info tool.Info, call tool.Call) tool.HookDecision {
	if !h.match.MatchString(info.Name) {
		return tool.HookDecision{}
	}
	code, stdout, stderr, err := h.run(ctx, env, hookInput{HookEventName: h.Event, ToolName: info.Name, ToolInput: input(call)})
	if err != nil {
		return tool.HookDecision{}
	}
	if code == 2 {
		return tool.HookDecision{Block: true, Reason: orText(stderr, "the PreToolUse hook refused the call")}
	}
	if code != 0 {
		return tool.HookDecision{}
	}
	var out hookOutput
	if json.Unmarshal(bytes.TrimSpace(stdout), &out) != nil {
		return tool.HookDecision{}
	}
	hs := out.HookSpecificOutput
	switch {
	case out.Continue != nil && !*out.Continue:
		return tool.HookDecision{Block: true, Reason: orText([]byte(out.StopReason), "a hook stopped the call")}
	case out.Decision == "block", hs.PermissionDecision == "deny":
		return tool.HookDecision{Block: true, Reason: orText([]byte(out.Reason+hs.PermissionDecisionReason), "a hook denied the call")}
	case hs.PermissionDecision == "ask":
		return tool.HookDecision{Block: true, Reason: orText([]byte(hs.PermissionDecisionReason), "a hook asked for the user's approval, which this host cannot get")}
	}
	if len(hs.UpdatedInput) > 0 && string(hs.UpdatedInput) != "null" {
		return tool.HookDecision{Input: hs.UpdatedInput}
	}
	return tool.HookDecision{}
}

func (h *hookRunner) post(ctx context.Context, env *tool.Env, info tool.Info, call tool.Call, res *tool.Result) {
	if !h.match.MatchString(info.Name) {
		return
	}
	code, stdout, stderr, err := h.run(ctx, env, hookInput{HookEventName: h.Event, ToolName: info.Name, ToolInput: input(call), ToolResponse: res.Structured})
	if err != nil {
		return
	}
	feedback := ""
	switch code {
	case 2:
		feedback = orText(stderr, "")
	case 0:
		var out hookOutput
		if json.Unmarshal(bytes.TrimSpace(stdout), &out) == nil && out.Decision == "block" {
			feedback = out.Reason
		}
	}
	if feedback != "" {
		res.Content = append(res.Content, tool.Text(h.Event+" hook feedback:\n"+feedback))
	}
}

func input(call tool.Call) json.RawMessage {
	if len(call.Input) == 0 {
		return json.RawMessage("{}")
	}
	return call.Input
}

func orText(b []byte, def string) string {
	if s := strings.TrimSpace(string(b)); s != "" {
		return s
	}
	return def
}

// run runs the command in its own process group (jobs.Exec), which is
// killed on timeout or cancellation, as is whatever the command leaves
// running when it exits; a failure to run, a timeout or a cancellation is
// logged and returned.
func (h *hookRunner) run(ctx context.Context, env *tool.Env, in hookInput) (int, []byte, []byte, error) {
	if env != nil {
		in.SessionID = env.SessionID
		if env.Cwd != nil {
			in.Cwd = env.Cwd()
		}
	}
	payload, err := json.Marshal(in)
	if err != nil {
		return 0, nil, nil, err
	}
	timeout := h.Timeout
	if timeout <= 0 {
		timeout = defaultHookTimeout
	}
	res, err := jobs.Exec(ctx, jobs.Command{
		Path:    "/bin/sh",
		Args:    []string{"sh", "-c", h.Command},
		Dir:     in.Cwd,
		Env:     append(os.Environ(), "CLAUDE_PROJECT_DIR="+in.Cwd),
		Stdin:   payload,
		Timeout: timeout,
	})
	switch {
	case res == nil:
		h.log.Warn("hook could not run", "event", h.Event, "command", h.Command, "err", err)
		return 0, nil, nil, err
	case res.TimedOut:
		h.log.Warn("hook timed out", "event", h.Event, "command", h.Command, "timeout", timeout)
		return 0, nil, nil, context.DeadlineExceeded
	case res.Canceled:
		h.log.Warn("hook was cancelled", "event", h.Event, "command", h.Command, "err", err)
		return 0, nil, nil, err
	case res.ExitCode != 0 && res.ExitCode != 2:
		h.log.Warn("hook failed", "event", h.Event, "command", h.Command, "status", res.ExitCode, "signal", res.Signal, "stderr", string(res.Stderr))
	}
	return res.ExitCode, res.Stdout, res.Stderr, nil
}
