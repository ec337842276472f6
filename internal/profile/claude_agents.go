package profile

// Claude Code 2.1.7's Task and Skill (recorded by ../shared/oracles/claude
// in testdata/claude/tools_seen_by_model.json). Their descriptions list the
// agent types and skills, which the runtime fills in.
var (
	claudeTask = Entry{Core: "task", Name: "Task", Description: desc("claude/Task.md"), Params: []Param{
		{Name: "description", Description: "A short (3-5 word) description of the task"},
		{Name: "prompt", Description: "The task for the agent to perform"},
		{Name: "subagent_type", Description: "The type of specialized agent to use for this task"},
		{Name: "model", Description: "Optional model to use for this agent. If not specified, inherits from parent. Prefer haiku for quick, straightforward tasks to minimize cost and latency."},
		{Name: "resume", Description: "Optional agent ID to resume from. If provided, the agent will continue from the previous execution transcript."},
		{Name: "run_in_background", Description: "Set to true to run this agent in the background. The tool result will include an output_file path - use Read tool or Bash tail to check on output."},
		{Name: "max_turns", Description: "Maximum number of agentic turns (API round-trips) before stopping. Used internally for warmup.", Schema: `{"exclusiveMinimum":0,"maximum":9007199254740991}`},
	}}
	claudeSkill = Entry{Core: "skill", Name: "Skill", Description: desc("claude/Skill.md"), Params: []Param{
		{Name: "skill", Description: `The skill name. E.g., "commit", "review-pr", or "pdf"`},
		{Name: "args", Description: "Optional arguments for the skill"},
	}}
)
