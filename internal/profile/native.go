package profile

import (
	"encoding/json"

	"github.com/hands-dev/hands/internal/tools"
	"github.com/hands-dev/hands/tool"
)

// native is seed 000's surface: the core tools under their native names,
// errors as "[CODE] message". Anthropic's text-editor conventions hold:
// str_replace without new_str deletes old_str.
func native(lim tools.Limits) *Profile {
	return &Profile{
		Name: "native",
		Tools: []Entry{
			{Core: "read", Name: "view"},
			{Core: "write", Name: "create_file"},
			{Core: "edit", Name: "str_replace", Params: []Param{
				{Name: "path"}, {Name: "old_str"}, {Name: "new_str", Description: "the text to put in its place; leave it out (or give \"\") to delete old_str"},
				{Name: "replace_all"}, {Name: "expected_replacements"},
			}, Required: []string{"path", "old_str"}, Transform: deleteWithoutNewStr},
			{Core: "multi_edit", Name: "multi_edit"},
			{Core: "notebook_edit", Name: "notebook_edit"},
			{Core: "glob", Name: "glob"},
			{Core: "grep", Name: "grep"},
			{Core: "bash", Name: "bash"},
			{Core: "task_output", Name: "task_output"},
			{Core: "task_kill", Name: "task_kill"},
			{Core: "todo_write", Name: "todo_write"},
			{Core: "enter_plan_mode", Name: "enter_plan_mode"},
			{Core: "exit_plan_mode", Name: "exit_plan_mode"},
			{Core: "ask_user_question", Name: "ask_user_question"},
			{Core: "web_fetch", Name: "web_fetch"},
			{Core: "web_search", Name: "web_search"},
			{Core: "task", Name: "task"},
			{Core: "skill", Name: "skill"},
			{Core: "lsp", Name: "lsp"},
		},
	}
}

// deleteWithoutNewStr makes a str_replace that leaves out new_str delete
// old_str, as Anthropic's text-editor tool does.
func deleteWithoutNewStr(args map[string]json.RawMessage) *tool.Error {
	if _, ok := args["new_str"]; !ok {
		args["new_str"] = json.RawMessage(`""`)
	}
	return nil
}
