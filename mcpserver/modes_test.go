package mcpserver_test

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/hands-dev/hands"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// user answers elicitations as the test sets it: the next answers in
// order, and records what it was asked.
type user struct {
	mu      sync.Mutex
	answers []*mcp.ElicitResult
	asked   []*mcp.ElicitParams
}

func (u *user) answer(rs ...*mcp.ElicitResult) {
	u.mu.Lock()
	defer u.mu.Unlock()
	u.answers = append(u.answers, rs...)
}

func (u *user) handle(_ context.Context, req *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
	u.mu.Lock()
	defer u.mu.Unlock()
	u.asked = append(u.asked, req.Params)
	if len(u.answers) == 0 {
		return &mcp.ElicitResult{Action: "cancel"}, nil
	}
	r := u.answers[0]
	u.answers = u.answers[1:]
	return r, nil
}

func (u *user) last() *mcp.ElicitParams {
	u.mu.Lock()
	defer u.mu.Unlock()
	if len(u.asked) == 0 {
		return nil
	}
	return u.asked[len(u.asked)-1]
}

func (u *user) count() int {
	u.mu.Lock()
	defer u.mu.Unlock()
	return len(u.asked)
}

// modeSession connects a client to a server over opts; with u nil the
// client does not declare elicitation.
func modeSession(t *testing.T, opts hands.Options, u *user) (*mcp.ClientSession, string) {
	t.Helper()
	t.Setenv("HOME", t.TempDir())
	var copts *mcp.ClientOptions
	if u != nil {
		copts = &mcp.ClientOptions{ElicitationHandler: u.handle}
	}
	return connectClient(t, opts, copts)
}

func call(t *testing.T, cs *mcp.ClientSession, name, args string) (string, bool) {
	t.Helper()
	var a map[string]any
	if err := json.Unmarshal([]byte(args), &a); err != nil {
		t.Fatal(err)
	}
	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: name, Arguments: a})
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	return text(res), res.IsError
}

func mustExist(t *testing.T, path string, want bool) {
	t.Helper()
	_, err := os.Stat(path)
	if (err == nil) != want {
		t.Errorf("%s exists: %v, want %v", path, err == nil, want)
	}
}

func accept(content map[string]any) *mcp.ElicitResult {
	return &mcp.ElicitResult{Action: "accept", Content: content}
}

// TestPlanModeOverMCP: in plan mode only read-only tools run; the plan is
// approved (back to the mode before), rejected with feedback, declined or
// cancelled (still in plan mode) through elicitation.
func TestPlanModeOverMCP(t *testing.T) {
	u := &user{}
	cs, root := modeSession(t, hands.Options{PermissionMode: "acceptEdits"}, u)
	if out, isErr := call(t, cs, "enter_plan_mode", `{}`); isErr || !strings.Contains(out, "Entered plan mode") {
		t.Fatalf("enter_plan_mode: %s", out)
	}
	out, isErr := call(t, cs, "create_file", `{"path":"a.txt","content":"a"}`)
	if !isErr || !strings.Contains(out, "Plan mode is active") {
		t.Errorf("a write in plan mode: %s", out)
	}
	out, isErr = call(t, cs, "bash", `{"command":"touch b.txt"}`)
	if !isErr || !strings.Contains(out, "Plan mode is active") {
		t.Errorf("a writing command in plan mode: %s", out)
	}
	mustExist(t, filepath.Join(root, "a.txt"), false)
	mustExist(t, filepath.Join(root, "b.txt"), false)
	if out, isErr := call(t, cs, "bash", `{"command":"ls"}`); isErr {
		t.Errorf("a read-only command in plan mode: %s", out)
	}
	if u.count() != 0 {
		t.Fatalf("asked %d times before the plan", u.count())
	}

	// Rejected with feedback: the model reads it, the session stays in plan mode.
	u.answer(accept(map[string]any{"approve": false, "feedback": "use sqlite"}))
	out, isErr = call(t, cs, "exit_plan_mode", `{"plan":"1. add a.txt"}`)
	if !isErr || !strings.Contains(out, "rejected the plan") || !strings.Contains(out, "use sqlite") {
		t.Errorf("rejected plan: %s", out)
	}
	if p := u.last(); p == nil || p.Mode != "form" || !strings.Contains(p.Message, "1. add a.txt") {
		t.Errorf("plan elicitation %+v", p)
	}
	// Declined and cancelled: rejections too.
	for _, action := range []string{"decline", "cancel"} {
		u.answer(&mcp.ElicitResult{Action: action})
		if out, isErr := call(t, cs, "exit_plan_mode", `{}`); !isErr || !strings.Contains(out, "rejected the plan") {
			t.Errorf("%s: %s", action, out)
		}
	}
	if out, _ := call(t, cs, "create_file", `{"path":"a.txt","content":"a"}`); !strings.Contains(out, "Plan mode is active") {
		t.Errorf("still in plan mode after rejections: %s", out)
	}
	// Approved: the plan written to the plan file earlier is presented, and
	// the session is back in acceptEdits.
	u.answer(accept(map[string]any{"approve": true}))
	out, isErr = call(t, cs, "exit_plan_mode", `{}`)
	if isErr || !strings.Contains(out, "approved your plan") || !strings.Contains(out, "acceptEdits") || !strings.Contains(out, "1. add a.txt") {
		t.Errorf("approved plan: %s", out)
	}
	if out, isErr := call(t, cs, "create_file", `{"path":"a.txt","content":"a"}`); isErr {
		t.Errorf("a write after approval: %s", out)
	}
	mustExist(t, filepath.Join(root, "a.txt"), true)
}

// TestClaudePlanFileOverMCP: with the claude profile the plan is written
// to the plan file, the one file plan mode lets the model write, and the
// results are Claude Code's.
func TestClaudePlanFileOverMCP(t *testing.T) {
	u := &user{}
	cs, root := modeSession(t, hands.Options{Profile: "claude"}, u)
	out, _ := call(t, cs, "EnterPlanMode", `{}`)
	i := strings.Index(out, "create your plan at ")
	if i < 0 {
		t.Fatalf("EnterPlanMode names no plan file: %s", out)
	}
	planFile := strings.Fields(out[i+len("create your plan at "):])[0]
	if !strings.HasPrefix(planFile, root+"/.claude/plans/") {
		t.Errorf("plan file %s is not in the project", planFile)
	}
	if out, isErr := call(t, cs, "Write", `{"file_path":"`+planFile+`","content":"# Plan\nstep 1\n"}`); isErr {
		t.Fatalf("writing the plan file in plan mode: %s", out)
	}
	if out, isErr := call(t, cs, "Write", `{"file_path":"`+root+`/x.txt","content":"x"}`); !isErr {
		t.Errorf("another write in plan mode: %s", out)
	}
	u.answer(&mcp.ElicitResult{Action: "decline"})
	out, isErr := call(t, cs, "ExitPlanMode", `{}`)
	want := "The user doesn't want to proceed with this tool use. The tool use was rejected (eg. if it was a file edit, the new_string was NOT written to the file). STOP what you are doing and wait for the user to tell you how to proceed."
	if !isErr || out != want {
		t.Errorf("declined: %q", out)
	}
	u.answer(accept(map[string]any{"approve": false, "feedback": "smaller steps"}))
	out, _ = call(t, cs, "ExitPlanMode", `{}`)
	if want := "The user doesn't want to proceed with this tool use. The tool use was rejected (eg. if it was a file edit, the new_string was NOT written to the file). To tell you how to proceed, the user said:\nsmaller steps"; out != want {
		t.Errorf("feedback: %q", out)
	}
	u.answer(accept(map[string]any{"approve": true}))
	out, isErr = call(t, cs, "ExitPlanMode", `{}`)
	if want := "User has approved your plan. You can now start coding. Start with updating your todo list if applicable\n\nYour plan has been saved to: " + planFile + "\nYou can refer back to it if needed during implementation.\n\n## Approved Plan:\n# Plan\nstep 1\n\n<system-reminder>\n## Exited Plan Mode\n\nYou have exited plan mode. You can now make edits, run tools, and take actions. The plan file is located at " + planFile + " if you need to reference it.\n</system-reminder>"; isErr || out != want {
		t.Errorf("approved: %q", out)
	}
}

const questions = `{"questions":[
	{"question":"Which database?","header":"Database","multiSelect":false,"options":[{"label":"SQLite","description":"a file"},{"label":"Postgres","description":"a server"}]},
	{"question":"Which features?","header":"Features","multiSelect":true,"options":[{"label":"Auth","description":"log in"},{"label":"Search","description":"find"},{"label":"Export","description":"csv"}]}]}`

// TestAskUserQuestionOverMCP: questions become one form elicitation, an
// enum per question; the answers come back in Claude Code's format.
func TestAskUserQuestionOverMCP(t *testing.T) {
	u := &user{}
	cs, _ := modeSession(t, hands.Options{Profile: "claude"}, u)
	u.answer(accept(map[string]any{"q1": "Postgres", "q2": []any{"Auth", "Export"}}))
	out, isErr := call(t, cs, "AskUserQuestion", questions)
	if want := `User has answered your questions: "Which database?"="Postgres", "Which features?"="Auth, Export". You can now continue with the user's answers in mind.`; isErr || out != want {
		t.Errorf("answers: %q", out)
	}
	p := u.last()
	schema, _ := json.Marshal(p.RequestedSchema)
	for _, want := range []string{`"q1":{"enum":["SQLite","Postgres"]`, `"q2":{"items":{"enum":["Auth","Search","Export"],"type":"string"},"title":"Which features?","type":"array"}`} {
		if !strings.Contains(string(schema), want) {
			t.Errorf("schema %s lacks %s", schema, want)
		}
	}
	if p.Mode != "form" || !strings.Contains(p.Message, "Which database?") || !strings.Contains(p.Message, "Postgres: a server") {
		t.Errorf("elicitation %+v", p)
	}
	// The user's own answer.
	u.answer(accept(map[string]any{"q1": "SQLite", "q1_other": "DuckDB", "q2": []any{"Search"}}))
	if out, _ := call(t, cs, "AskUserQuestion", questions); !strings.Contains(out, `"Which database?"="DuckDB"`) {
		t.Errorf("other: %q", out)
	}
	for _, action := range []string{"decline", "cancel"} {
		u.answer(&mcp.ElicitResult{Action: action})
		out, isErr := call(t, cs, "AskUserQuestion", questions)
		if !isErr || !strings.HasPrefix(out, "The user doesn't want to proceed with this tool use.") {
			t.Errorf("%s: %q", action, out)
		}
	}
	// Invalid: one option.
	n := u.count()
	out, isErr = call(t, cs, "AskUserQuestion", `{"questions":[{"question":"Q?","header":"H","multiSelect":false,"options":[{"label":"A","description":"a"}]}]}`)
	if !isErr || u.count() != n {
		t.Errorf("one option: %q, asked %d", out, u.count()-n)
	}
}

// TestAskRulesOverMCP: a rule's ask is an elicitation; accept runs the
// call, decline and cancel deny it and nothing runs.
func TestAskRulesOverMCP(t *testing.T) {
	u := &user{}
	cs, root := modeSession(t, hands.Options{Permissions: hands.PermissionRules{
		Allow: []string{"Bash(echo:*)"}, Ask: []string{"Bash(touch:*)"}, Deny: []string{"Bash(rm:*)"}}}, u)
	u.answer(accept(map[string]any{}))
	if out, isErr := call(t, cs, "bash", `{"command":"touch yes.txt"}`); isErr {
		t.Errorf("accepted: %s", out)
	}
	if p := u.last(); p == nil || !strings.Contains(p.Message, "Bash(touch:*)") {
		t.Errorf("the question does not name the rule: %+v", p)
	}
	mustExist(t, filepath.Join(root, "yes.txt"), true)
	for _, action := range []string{"decline", "cancel"} {
		u.answer(&mcp.ElicitResult{Action: action})
		if out, isErr := call(t, cs, "bash", `{"command":"touch `+action+`.txt"}`); !isErr || !strings.Contains(out, "PERMISSION_DENIED") {
			t.Errorf("%s: %s", action, out)
		}
		mustExist(t, filepath.Join(root, action+".txt"), false)
	}
	n := u.count()
	if out, isErr := call(t, cs, "bash", `{"command":"echo hi && rm yes.txt"}`); !isErr || !strings.Contains(out, "deny rule Bash(rm:*)") {
		t.Errorf("denied: %s", out)
	}
	if out, isErr := call(t, cs, "bash", `{"command":"echo hi"}`); isErr || u.count() != n {
		t.Errorf("allowed: %s (asked %d)", out, u.count()-n)
	}
	mustExist(t, filepath.Join(root, "yes.txt"), true)
}

// TestNoElicitationFailsClosed: a client without elicitation cannot be
// asked: asks are denied saying why, plan approval keeps plan mode, and
// questions say no user can be asked.
func TestNoElicitationFailsClosed(t *testing.T) {
	cs, root := modeSession(t, hands.Options{Permissions: hands.PermissionRules{Ask: []string{"Bash(touch:*)"}}}, nil)
	out, isErr := call(t, cs, "bash", `{"command":"touch x.txt"}`)
	if !isErr || !strings.Contains(out, "does not support elicitation") {
		t.Errorf("ask without elicitation: %s", out)
	}
	mustExist(t, filepath.Join(root, "x.txt"), false)
	call(t, cs, "enter_plan_mode", `{}`)
	out, isErr = call(t, cs, "exit_plan_mode", `{"plan":"p"}`)
	if !isErr || !strings.Contains(out, "does not support elicitation") || !strings.Contains(out, "stays in plan mode") {
		t.Errorf("plan without elicitation: %s", out)
	}
	if out, _ := call(t, cs, "create_file", `{"path":"y.txt","content":"y"}`); !strings.Contains(out, "Plan mode is active") {
		t.Errorf("left plan mode without approval: %s", out)
	}
	out, isErr = call(t, cs, "ask_user_question", questions)
	if !isErr || !strings.Contains(out, "no user can be asked") {
		t.Errorf("questions without elicitation: %s", out)
	}
}

// TestAskRuleOnAskingTools: an ask rule on a tool that asks its user itself
// (AskUserQuestion, ExitPlanMode) is answered by that tool's own prompt, in
// one elicitation, as Claude Code's dialogs are; a deny rule still refuses
// them without asking anything.
func TestAskRuleOnAskingTools(t *testing.T) {
	u := &user{}
	cs, _ := modeSession(t, hands.Options{Profile: "claude", Permissions: hands.PermissionRules{
		Ask: []string{"AskUserQuestion", "ExitPlanMode"}}}, u)
	u.answer(accept(map[string]any{"q1": "Postgres", "q2": []any{"Auth"}}))
	out, isErr := call(t, cs, "AskUserQuestion", questions)
	if isErr || !strings.Contains(out, `"Which database?"="Postgres"`) || u.count() != 1 {
		t.Errorf("questions under an ask rule: %q, %d elicitations", out, u.count())
	}
	call(t, cs, "EnterPlanMode", `{}`)
	u.answer(accept(map[string]any{"approve": true}))
	// Other properties are ignored, as Claude Code's schema admits them.
	out, isErr = call(t, cs, "ExitPlanMode", `{"plan":"1. step","launchSwarm":true}`)
	if isErr || !strings.HasPrefix(out, "User has approved exiting plan mode.") || u.count() != 2 {
		t.Errorf("plan under an ask rule: %q, %d elicitations", out, u.count())
	}

	d := &user{}
	cs, _ = modeSession(t, hands.Options{Profile: "claude", Permissions: hands.PermissionRules{
		Deny: []string{"AskUserQuestion"}}}, d)
	out, isErr = call(t, cs, "AskUserQuestion", questions)
	if !isErr || !strings.Contains(out, "AskUserQuestion") || d.count() != 0 {
		t.Errorf("denied questions: %q, %d elicitations", out, d.count())
	}
}
