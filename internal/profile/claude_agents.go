package profile

import (
	"fmt"
	"strings"
	"sync"

	"github.com/hands-dev/hands/internal/tools"
	"github.com/hands-dev/hands/tool"
)

// Claude Code 2.1.7's Task and Skill (recorded by ../shared/oracles/claude
// in testdata/claude/tools_seen_by_model.json). Their descriptions list the
// agent types and skills, which the runtime fills in.
var (
	claudeTask = sync.OnceValue(func() Entry {
		return Entry{Core: "task", Name: "Task", Description: desc("claude/Task.md"), Params: []Param{
			{Name: "description", Description: "A short (3-5 word) description of the task"},
			{Name: "prompt", Description: "The task for the agent to perform"},
			{Name: "subagent_type", Description: "The type of specialized agent to use for this task"},
			{Name: "model", Description: "Optional model to use for this agent. If not specified, inherits from parent. Prefer haiku for quick, straightforward tasks to minimize cost and latency."},
			{Name: "resume", Description: "Optional agent ID to resume from. If provided, the agent will continue from the previous execution transcript."},
			{Name: "run_in_background", Description: "Set to true to run this agent in the background. The tool result will include an output_file path - use Read tool or Bash tail to check on output."},
			{Name: "max_turns", Description: "Maximum number of agentic turns (API round-trips) before stopping. Used internally for warmup.", Schema: `{"exclusiveMinimum":0,"maximum":9007199254740991}`},
		}}
	})
	claudeSkill = sync.OnceValue(func() Entry {
		return Entry{Core: "skill", Name: "Skill", Description: desc("claude/Skill.md"), Params: []Param{
			{Name: "skill", Description: `The skill name. E.g., "commit", "review-pr", or "pdf"`},
			{Name: "args", Description: "Optional arguments for the skill"},
		}}
	})
)

// claudeTaskResult is Task's result as Claude Code 2.1.7 gives it (recorded
// with ../shared/oracles/claude, pinned in testdata/claude/oracle_task.txtar):
// a finished agent's answer, then its id in a block of its own — the usage
// figures are not in the text, only in the structured result; a background
// agent's launch notice naming its output file.
func claudeTaskResult(o *tools.TaskResult) []tool.Content {
	if o.Status == "async_launched" {
		return []tool.Content{tool.Text(fmt.Sprintf(`Async agent launched successfully.
agentId: %s (This is an internal ID for your use, do not mention it to the user. You can use this ID to resume the agent later if needed.)
output_file: %s
The agent is currently working in the background. If you have other tasks you should continue working on them now.
To check on the agent's progress or retrieve its results, use the Read tool to read the output file, or use Bash with `+"`tail`"+` to see recent output.`, o.AgentID, o.OutputFile))}
	}
	var out []tool.Content
	if o.Text != "" {
		out = append(out, tool.Text(o.Text))
	}
	return append(out, tool.Text(fmt.Sprintf("agentId: %s (for resuming to continue this agent's work if needed)", o.AgentID)))
}

// claudeAgentOutput is TaskOutput's result for a background agent, as
// Claude Code 2.1.7 gives it (recorded): local_agent, no exit code, the
// agent's transcript as its output, and why it failed.
func claudeAgentOutput(o *tools.TaskOutputOutput, retrieval string) string {
	parts := []string{
		"<retrieval_status>" + retrieval + "</retrieval_status>",
		"<task_id>" + o.TaskID + "</task_id>",
		"<task_type>local_agent</task_type>",
		"<status>" + o.Status + "</status>",
	}
	if out := strings.TrimRight(o.Output, " \t\r\n"); strings.TrimSpace(out) != "" {
		parts = append(parts, "<output>\n"+out+"\n</output>")
	}
	if o.Error != "" {
		parts = append(parts, "<error>"+o.Error+"</error>")
	}
	return strings.Join(parts, "\n\n")
}
