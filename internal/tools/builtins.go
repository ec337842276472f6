package tools

import "github.com/hands-dev/hands/tool"

// Builtins returns a fresh set of the core tools under their core names;
// a profile exposes them under its own.
func Builtins() []tool.Tool {
	return []tool.Tool{
		Read(),
		Write(),
		Edit(),
		MultiEdit(),
		List(),
		NotebookEdit(),
		Glob(),
		Grep(),
		Bash(),
		TaskOutput(),
		TaskKill(),
		TodoWrite(),
	}
}
