package profile

import "github.com/hands-dev/hands/internal/tools"

// native is seed 000's surface: the core tools under their native names,
// errors as "[CODE] message".
func native(lim tools.Limits) *Profile {
	return &Profile{
		Name: "native",
		Tools: []Entry{
			{Core: "read", Name: "view"},
			{Core: "write", Name: "create_file"},
			{Core: "edit", Name: "str_replace"},
			{Core: "multi_edit", Name: "multi_edit"},
			{Core: "notebook_edit", Name: "notebook_edit"},
			{Core: "glob", Name: "glob"},
			{Core: "grep", Name: "grep"},
			{Core: "bash", Name: "bash"},
			{Core: "task_output", Name: "task_output"},
			{Core: "task_kill", Name: "task_kill"},
			{Core: "todo_write", Name: "todo_write"},
		},
	}
}
