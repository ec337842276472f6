package tools

import "github.com/hands-dev/hands/tool"

// Builtins returns a fresh set of the core tools under their core names,
// bounded by lim (zero fields are defaults) and with the numbers their
// descriptions state taken from it; a profile exposes them under its own
// names.
func Builtins(lim Limits) []tool.Tool {
	lim = lim.WithDefaults()
	ts := []tool.Tool{
		Read(lim),
		Write(),
		Edit(),
		MultiEdit(),
		List(),
		NotebookEdit(),
		Glob(lim),
		Grep(lim),
		Bash(lim),
		TaskOutput(),
		TaskKill(),
		TodoWrite(),
		EnterPlanMode(),
		ExitPlanMode(),
		AskUserQuestion(),
		WebFetch(lim),
		WebSearch(),
		QueryLoop(),
		ShareData(),
		CompleteTask(),
		ReplyQuery(),
		Task(),
		Skill(),
	}
	for i, t := range ts {
		ts[i] = withLimits(t, lim)
	}
	return ts
}
