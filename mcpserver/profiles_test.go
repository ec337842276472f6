package mcpserver_test

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/hands-dev/hands"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// profileCall is one call over MCP and what it must give: the exact text
// ($ROOT for the workspace), and for a failure its code, which the
// structured content must carry.
type profileCall struct {
	tool string
	args string
	text string
	code string
	// setup "touch" changes hello.txt on disk before the call.
	setup string
}

// profileScenarios hold, per profile, one scenario per tool, run in order
// in one MCP session over a workspace holding hello.txt ("hello\nworld\n").
// The txtar scenarios of internal/profile cover each requirement through
// the executor; these check that the same surface reaches an MCP client:
// names, parameters, text, isError, and structured content that matches
// the advertised output schema and carries the error code.
var profileScenarios = map[string][]profileCall{
	"claude": {
		{tool: "Read", args: `{"file_path":"$ROOT/hello.txt"}`, text: "     1→hello\n     2→world\n     3→"},
		{tool: "Write", args: `{"file_path":"$ROOT/hello.txt","content":"x"}`, code: "FILE_CHANGED", text: "<tool_use_error>File has been modified since read, either by the user or by a linter. Read it again before attempting to write it.</tool_use_error>", setup: "touch"},
		{tool: "Edit", args: `{"file_path":"$ROOT/hello.txt","old_string":"o","new_string":"0"}`, code: "FILE_CHANGED", text: "<tool_use_error>File has been modified since read, either by the user or by a linter. Read it again before attempting to write it.</tool_use_error>"},
		{tool: "Read", args: `{"file_path":"$ROOT/hello.txt"}`, text: "     1→hello\n     2→world\n     3→again\n     4→"},
		{tool: "Edit", args: `{"file_path":"$ROOT/hello.txt","old_string":"again","new_string":"end"}`, text: "The file $ROOT/hello.txt has been updated. Here's the result of running `cat -n` on a snippet of the edited file:\n     1→hello\n     2→world\n     3→end\n     4→"},
		{tool: "Glob", args: `{"pattern":"*.txt"}`, text: "$ROOT/hello.txt"},
		{tool: "Grep", args: `{"pattern":"world","output_mode":"content"}`, text: "hello.txt:2:world"},
		{tool: "Bash", args: `{"command":"echo out; echo err >&2; exit 2"}`, code: "COMMAND_FAILED", text: "Exit code 2\nout\nerr"},
		{tool: "TaskOutput", args: `{"task_id":"job-7"}`, code: "BASH_TASK_NOT_FOUND", text: "<tool_use_error>No task found with ID: job-7</tool_use_error>"},
		{tool: "KillShell", args: `{"shell_id":"job-7"}`, code: "BASH_TASK_NOT_FOUND", text: "<tool_use_error>No shell found with ID: job-7</tool_use_error>"},
		{tool: "TodoWrite", args: `{"todos":[{"content":"Run tests","status":"in_progress","activeForm":"Running tests"}]}`, text: "Todos have been modified successfully. Ensure that you continue to use the todo list to track your progress. Please proceed with the current tasks if applicable"},
		{tool: "NotebookEdit", args: `{"notebook_path":"$ROOT/nb.ipynb","new_source":"x"}`, code: "INVALID_INPUT", text: "<tool_use_error>replace needs a cell: give cell_id or cell_index (0-based)</tool_use_error>"},
		{tool: "ExitPlanMode", args: `{}`, code: "INVALID_INPUT", text: "<tool_use_error>the session is not in plan mode, so there is no plan to approve; call enter_plan_mode first, or go ahead with the task</tool_use_error>"},
		{tool: "AskUserQuestion", args: `{"questions":[{"question":"Which?","header":"H","multiSelect":false,"options":[{"label":"A","description":"a"},{"label":"B","description":"b"}]}]}`, code: "PERMISSION_DENIED", text: "<tool_use_error>no user can be asked: the MCP client does not support elicitation, so these questions cannot be answered; decide yourself from what you know and say which assumptions you made, or stop and write the questions in your reply</tool_use_error>"},
		{tool: "EnterPlanMode", args: `{}`, text: "Entered plan mode. You should now focus on exploring the codebase and designing an implementation approach.\n\nIn plan mode, you should:\n1. Thoroughly explore the codebase to understand existing patterns\n2. Identify similar features and architectural approaches\n3. Consider multiple approaches and their trade-offs\n4. Use AskUserQuestion if you need to clarify the approach\n5. Design a concrete implementation strategy\n6. When ready, use ExitPlanMode to present your plan for approval\n\nRemember: DO NOT write or edit any files yet. This is a read-only exploration and planning phase.\n\n<system-reminder>\nPlan mode is active. The user indicated that they do not want you to execute yet -- you MUST NOT make any edits (with the exception of the plan file mentioned below), run any non-readonly tools (including changing configs or making commits), or otherwise make any changes to the system. This supercedes any other instructions you have received.\n\n## Plan File Info:\nNo plan file exists yet. You should create your plan at $ROOT/.claude/plans/$SESSION.md using the Write tool.\nYou should build your plan incrementally by writing to or editing this file. NOTE that this is the only file you are allowed to edit - other than this you are only allowed to take READ-ONLY actions.\n</system-reminder>"},
		{tool: "WebFetch", args: `{"url":"not a url","prompt":"x"}`, code: "INVALID_INPUT", text: "<tool_use_error>InputValidationError: [\n  {\n    \"code\": \"invalid_format\",\n    \"format\": \"url\",\n    \"path\": [\n      \"url\"\n    ],\n    \"message\": \"Invalid URL\"\n  }\n]</tool_use_error>"},
		{tool: "WebSearch", args: `{"query":"go","allowed_domains":["a.dev"],"blocked_domains":["b.dev"]}`, code: "INVALID_INPUT", text: "<tool_use_error>Error: Cannot specify both allowed_domains and blocked_domains in the same request</tool_use_error>"},
		{tool: "Skill", args: `{"skill":"pdf"}`, code: "INVALID_INPUT", text: "<tool_use_error>Unknown skill: pdf</tool_use_error>"},
		{tool: "LSP", args: `{"operation":"hover","filePath":"$ROOT/hello.txt","line":1,"character":1}`, code: "LSP_SERVER_UNAVAILABLE", text: "No LSP server available for file type: .txt"},
	},
	"gemini": {
		{tool: "list_directory", args: `{"dir_path":"$ROOT"}`, text: "Directory listing for $ROOT:\nhello.txt"},
		{tool: "read_file", args: `{"absolute_path":"$ROOT/hello.txt","offset":1}`, text: "world\n"},
		{tool: "write_file", args: `{"file_path":"$ROOT/hello.txt","content":"hello\nthere\n"}`, text: "Successfully overwrote file: $ROOT/hello.txt."},
		{tool: "replace", args: `{"file_path":"$ROOT/hello.txt","old_string":"e","new_string":"E"}`, code: "STR_REPLACE_AMBIGUOUS", text: "Failed to edit, Expected 1 occurrence but found 3 for old_string in file: $ROOT/hello.txt"},
		{tool: "run_shell_command", args: `{"command":"echo $(id)"}`, code: "COMMAND_REJECTED", text: "Command rejected: echo $(id)\nReason: Command substitution using $() is not allowed for security reasons"},
		{tool: "search_file_content", args: `{"pattern":"the.e"}`, text: "Found 1 match for pattern \"the.e\" in path \".\":\n---\nFile: hello.txt\nL2: there\n---"},
		{tool: "glob", args: `{"pattern":"*.TXT"}`, text: "Found 1 file(s) matching \"*.TXT\" within $ROOT, sorted by modification time (newest first):\n$ROOT/hello.txt"},
	},
	"envelope": {
		{tool: "glob", args: `{"pattern":"*.txt"}`, text: `{"success":true,"data":{"output":"hello.txt","count":1}}`},
		{tool: "file_read", args: `{"path":"hello.txt"}`, text: `{"success":true,"data":{"output":"hello\nworld\n"}}`},
		{tool: "grep", args: `{"pattern":"wor"}`, text: `{"success":true,"data":{"output":"hello.txt:2: world","count":1}}`},
		{tool: "file_write", args: `{"path":"out.txt","content":"12345"}`, text: `{"success":true,"data":{"output":"Wrote 5 bytes to out.txt","bytes":5}}`},
		{tool: "bash", args: `{"command":"cat out.txt; exit 3"}`, text: `{"success":true,"data":{"output":"12345","exit_code":3}}`},
		{tool: "file_read", args: `{"path":"missing.txt"}`, code: "PATH_NOT_FOUND", text: `{"success":false,"error":"File not found: missing.txt"}`},
	},
	"taskdaemon": {
		{tool: "read_file", args: `{"path":"hello.txt","offset":2}`, text: "     2│world"},
		{tool: "write_file", args: `{"path":"sub/new.txt","content":"new"}`, text: "Wrote 3 bytes to sub/new.txt"},
		{tool: "edit_file", args: `{"path":"hello.txt","old_string":"o","new_string":"0","replace_all":true}`, text: "Replaced 2 occurrence(s) in hello.txt"},
		{tool: "list_directory", args: `{}`, text: "hello.txt\nsub/"},
		{tool: "glob", args: `{"pattern":"**/*.txt"}`, text: "hello.txt\nsub/new.txt"},
		{tool: "grep", args: `{"pattern":"w0rld","context":0}`, text: "$ROOT/hello.txt:2:w0rld\n"},
		{tool: "run_command", args: `{"command":"echo bad >&2; exit 5"}`, code: "COMMAND_FAILED", text: "[COMMAND_FAILED] Exit code: 5\nbad\n"},
		{tool: "read_file", args: `{"path":"/etc/hosts"}`, code: "ACCESS_DENIED", text: "[ACCESS_DENIED] Path /etc/hosts escapes worktree $ROOT"},
		{tool: "query_loop", args: `{"target_exec_id":"api","question":"port?"}`, code: "NO_COORDINATOR", text: "[NO_COORDINATOR] query_loop needs a coordinator, and this session has none: start the server with --coordinator (local or nats://host:4222) and an --exec-id"},
		{tool: "share_data", args: `{"target_exec_ids":["api"],"data_type":"config","data":{}}`, code: "NO_COORDINATOR", text: "[NO_COORDINATOR] share_data needs a coordinator, and this session has none: start the server with --coordinator (local or nats://host:4222) and an --exec-id"},
		{tool: "complete_task", args: `{"summary":"done"}`, text: "Task marked complete: done"},
	},
	"native": {
		{tool: "view", args: `{"path":"hello.txt"}`, text: "     1\thello\n     2\tworld"},
		{tool: "bash", args: `{"command":"exit 3"}`, text: "(no output)\n\n[exit code: 3]"},
	},
}

// sessionDir matches a session's temporary directory in a result.
var sessionDir = regexp.MustCompile(`hands-session-[0-9]+`)

// TestProfilesOverMCP runs each profile's scenario over MCP, every tool
// of every profile once at least.
func TestProfilesOverMCP(t *testing.T) {
	for _, prof := range hands.Profiles() {
		t.Run(prof, func(t *testing.T) {
			calls, ok := profileScenarios[prof]
			if !ok {
				t.Fatalf("no scenario for profile %s", prof)
			}
			cs, root := connect(t, hands.Options{Profile: prof})
			ctx := context.Background()
			list, err := cs.ListTools(ctx, nil)
			if err != nil {
				t.Fatal(err)
			}
			defs := map[string]*mcp.Tool{}
			for _, tl := range list.Tools {
				defs[tl.Name] = tl
			}
			called := map[string]bool{}
			for i, c := range calls {
				def, ok := defs[c.tool]
				if !ok {
					t.Fatalf("call %d: the %s profile has no tool %s", i, prof, c.tool)
				}
				called[c.tool] = true
				if c.setup == "touch" {
					// Change the file behind the session's back.
					if err := os.WriteFile(filepath.Join(root, "hello.txt"), []byte("hello\nworld\nagain\n"), 0o644); err != nil {
						t.Fatal(err)
					}
				}
				var args map[string]any
				if err := json.Unmarshal([]byte(strings.ReplaceAll(c.args, "$ROOT", root)), &args); err != nil {
					t.Fatal(err)
				}
				res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: c.tool, Arguments: args})
				if err != nil {
					t.Fatalf("call %d %s: %v", i, c.tool, err)
				}
				got := strings.ReplaceAll(text(res), root, "$ROOT")
				got = sessionDir.ReplaceAllString(got, "$$SESSION")
				if got != c.text {
					t.Errorf("call %d %s: text\n%q\nwant\n%q", i, c.tool, got, c.text)
				}
				if res.IsError != (c.code != "") {
					t.Errorf("call %d %s: isError %v, want code %q", i, c.tool, res.IsError, c.code)
				}
				validate(t, def.OutputSchema, res.StructuredContent)
				sc, _ := res.StructuredContent.(map[string]any)
				if c.code != "" && sc["code"] != c.code {
					t.Errorf("call %d %s: structured content %v does not carry the code %s", i, c.tool, sc, c.code)
				}
				if prof == "envelope" {
					var env map[string]any
					if err := json.Unmarshal([]byte(text(res)), &env); err != nil {
						t.Errorf("call %d: envelope text is not JSON: %v", i, err)
					}
					delete(sc, "code")
					a, _ := json.Marshal(env)
					b, _ := json.Marshal(sc)
					if string(a) != string(b) {
						t.Errorf("call %d: structured content %s is not the envelope %s", i, b, a)
					}
				}
			}
			if prof == "native" {
				return // the native tools have their own MCP tests
			}
			for name := range defs {
				if !called[name] {
					t.Errorf("no call of %s over MCP", name)
				}
			}
		})
	}
}
