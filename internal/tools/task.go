package tools

import (
	"context"
	_ "embed"
	"fmt"
	"strings"
	"time"

	"github.com/hands-dev/hands/model"
	"github.com/hands-dev/hands/tool"
)

//go:embed task.md
var taskDescription string

// AgentsMarker stands in a Task description for the list of agent types,
// which only the runtime knows; it fills it in.
const AgentsMarker = "@@AGENTS@@"

// TaskInput starts a subagent.
type TaskInput struct {
	Description     string `json:"description" jsonschema:"a short (3-5 word) description of the task"`
	Prompt          string `json:"prompt" jsonschema:"the task for the agent to perform"`
	SubagentType    string `json:"subagent_type" jsonschema:"the type of specialized agent to use for this task"`
	Model           string `json:"model,omitempty" jsonschema:"optional model for this agent; default the caller's"`
	Resume          string `json:"resume,omitempty" jsonschema:"optional agent id to resume: the agent continues from its previous transcript"`
	RunInBackground bool   `json:"run_in_background,omitempty" jsonschema:"run the agent in the background; read its result with task_output"`
	MaxTurns        int    `json:"max_turns,omitzero" jsonschema:"maximum number of agentic turns (model round trips) before stopping"`
}

// TaskResult is a subagent's result.
type TaskResult struct {
	AgentID string `json:"agent_id"`
	// Status is completed, or async_launched for a background agent.
	Status string `json:"status"`
	// Text is the agent's final answer.
	Text         string `json:"text,omitempty"`
	InputTokens  int64  `json:"input_tokens,omitzero"`
	OutputTokens int64  `json:"output_tokens,omitzero"`
	TotalTokens  int64  `json:"total_tokens,omitzero"`
	ToolUses     int    `json:"tool_uses"`
	Turns        int    `json:"turns"`
	DurationMS   int64  `json:"duration_ms"`
	// Usage reports whether the model gave its token counts.
	Usage bool `json:"-"`
	// Description echoes the call's, for a background agent's notice.
	Description string `json:"description,omitempty"`
	// OutputFile is a background agent's output file: its transcript, one
	// JSON line a message, written as it runs (readable with task_output).
	OutputFile string `json:"output_file,omitempty"`
}

// Subagents runs the Task tool's agents for a session. The host builds
// each agent's session, tools and model.
type Subagents interface {
	// Run runs an agent to its end, or starts it in the background when
	// in.RunInBackground. Failures are *tool.Error values.
	Run(ctx context.Context, env *tool.Env, in TaskInput) (*TaskResult, error)
	// Background reports on the background agent id: found is false
	// when there is none. With block it waits up to wait for the agent
	// to finish.
	Background(ctx context.Context, id string, block bool, wait time.Duration) (b BackgroundAgent, found bool)
	// Kill stops the background agent id and its commands; found is
	// false when there is none.
	Kill(id string) (b BackgroundAgent, found bool)
}

// BackgroundAgent is the state of an agent started in the background.
type BackgroundAgent struct {
	Description string
	// Status is running, completed, failed or killed.
	Status string
	// Text is the result as the task call would have given it, once the
	// agent has completed.
	Text string
	// Error says why a failed agent failed.
	Error    string
	Duration time.Duration
	// OutputFile holds the agent's transcript as it runs.
	OutputFile string
}

// Task is the subagent tool.
func Task() tool.Tool {
	return tool.New(tool.Spec[TaskInput]{
		Name:        "task",
		Title:       "Run a subagent",
		Description: taskDescription,
		Enums:       map[string][]string{"model": {"sonnet", "opus", "haiku"}},
		Validate: func(_ context.Context, env *tool.Env, in TaskInput) (TaskInput, error) {
			switch {
			case strings.TrimSpace(in.Prompt) == "":
				return in, toolErr(tool.InvalidInput, "%s is empty; say what the agent should do", param("prompt"))
			case strings.TrimSpace(in.SubagentType) == "":
				return in, toolErr(tool.InvalidInput, "%s is empty; name one of the agent types the description lists", param("subagent_type"))
			case in.MaxTurns < 0:
				return in, toolErr(tool.InvalidInput, "%s %d must be positive", param("max_turns"), in.MaxTurns)
			}
			if stateOf(env).Agents == nil {
				return in, errNoModel()
			}
			return in, nil
		},
	}, func(ctx context.Context, env *tool.Env, in TaskInput) (*TaskResult, error) {
		return stateOf(env).Agents.Run(ctx, env, in)
	})
}

// errNoModel says what to configure for subagents.
func errNoModel() *tool.Error {
	return toolErr(tool.ModelNotConfigured, "no model is available to run a subagent: set ANTHROPIC_API_KEY (and ANTHROPIC_BASE_URL for another server) or OPENAI_API_KEY and OPENAI_BASE_URL (any OpenAI-compatible server, such as Ollama, vLLM or llama.cpp) in the environment or the \"model\" section of --config, give hands.Options.Model, or use an MCP client that offers sampling")
}

// ErrNoModel is the error of a Task call when no model is available.
func ErrNoModel() *tool.Error { return errNoModel() }

// NewUsage fills o's token figures from u; a model that gave none leaves
// them out.
func (o *TaskResult) NewUsage(u model.Usage) {
	o.InputTokens, o.OutputTokens = u.InputTokens, u.OutputTokens
	o.TotalTokens = u.InputTokens + u.OutputTokens
	o.Usage = o.TotalTokens > 0
}

// Content renders the result as Claude Code 2.1.7 does: the agent's text,
// the agent id to resume it by, and the usage figures.
func (o *TaskResult) Content() []tool.Content {
	if o.Status == "async_launched" {
		return []tool.Content{tool.Text(fmt.Sprintf("Async agent launched successfully.\nagentId: %s (read its result with %s; stop it with %s)\noutput_file: %s (its transcript, one JSON line a message, written as it runs)", o.AgentID, tool.ToolName("task_output"), tool.ToolName("task_kill"), o.OutputFile))}
	}
	var b strings.Builder
	b.WriteString(o.Text)
	fmt.Fprintf(&b, "\n\nagentId: %s (for resuming to continue this agent's work if needed)", o.AgentID)
	fmt.Fprintf(&b, "\n<usage>")
	if o.Usage {
		fmt.Fprintf(&b, "total_tokens: %d\n", o.TotalTokens)
	}
	fmt.Fprintf(&b, "tool_uses: %d\nduration_ms: %d</usage>", o.ToolUses, o.DurationMS)
	return []tool.Content{tool.Text(b.String())}
}
