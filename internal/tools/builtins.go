package tools

import (
	"slices"

	"github.com/hands-dev/hands/tool"
)

// builtins are the core tools' constructors, by core name, in their order.
var builtins = []struct {
	name string
	make func(Limits) tool.Tool
}{
	{"read", func(l Limits) tool.Tool { return Read(l) }},
	{"write", func(Limits) tool.Tool { return Write() }},
	{"edit", func(Limits) tool.Tool { return Edit() }},
	{"multi_edit", func(Limits) tool.Tool { return MultiEdit() }},
	{"list", func(Limits) tool.Tool { return List() }},
	{"notebook_edit", func(Limits) tool.Tool { return NotebookEdit() }},
	{"glob", func(l Limits) tool.Tool { return Glob(l) }},
	{"grep", func(l Limits) tool.Tool { return Grep(l) }},
	{"bash", func(l Limits) tool.Tool { return Bash(l) }},
	{"task_output", func(Limits) tool.Tool { return TaskOutput() }},
	{"task_kill", func(Limits) tool.Tool { return TaskKill() }},
	{"todo_write", func(Limits) tool.Tool { return TodoWrite() }},
	{"enter_plan_mode", func(Limits) tool.Tool { return EnterPlanMode() }},
	{"exit_plan_mode", func(Limits) tool.Tool { return ExitPlanMode() }},
	{"ask_user_question", func(Limits) tool.Tool { return AskUserQuestion() }},
	{"web_fetch", func(l Limits) tool.Tool { return WebFetch(l) }},
	{"web_search", func(Limits) tool.Tool { return WebSearch() }},
	{"query_loop", func(Limits) tool.Tool { return QueryLoop() }},
	{"share_data", func(Limits) tool.Tool { return ShareData() }},
	{"complete_task", func(Limits) tool.Tool { return CompleteTask() }},
	{"reply_query", func(Limits) tool.Tool { return ReplyQuery() }},
	{"task", func(Limits) tool.Tool { return Task() }},
	{"skill", func(Limits) tool.Tool { return Skill() }},
	{"lsp", LSP},
}

// Builtins returns a fresh set of the core tools under their core names,
// bounded by lim (zero fields are defaults) and with the numbers their
// descriptions state taken from it; a profile exposes them under its own
// names.
func Builtins(lim Limits) []tool.Tool { return BuiltinsOf(lim, nil) }

// BuiltinsOf is Builtins limited to the core tools named in names (all of
// them when names is nil): a runtime builds only the tools its profile
// exposes, since building one (its schemas) is most of a start-up's work.
func BuiltinsOf(lim Limits, names []string) []tool.Tool {
	lim = lim.WithDefaults()
	var ts []tool.Tool
	for _, b := range builtins {
		if names == nil || slices.Contains(names, b.name) {
			ts = append(ts, withLimits(b.make(lim), lim))
		}
	}
	return ts
}
