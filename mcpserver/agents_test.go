//lint:file-ignore SA1019 the test client answers sampling requests, a deprecated but working MCP feature.

package mcpserver_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/hands-dev/hands"
	"github.com/hands-dev/hands/mcpserver"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// step is one scripted turn of the fake model: tool calls, or the final
// text when calls is empty.
type step struct {
	calls []toolUse
	text  string
}

type toolUse struct {
	name string
	args map[string]any
}

// scriptedModel answers sampling requests with tools from a script, and
// keeps the requests it saw.
type scriptedModel struct {
	mu    sync.Mutex
	steps []step
	seen  []*mcp.CreateMessageWithToolsParams
}

func (m *scriptedModel) handle(_ context.Context, req *mcp.CreateMessageWithToolsRequest) (*mcp.CreateMessageWithToolsResult, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.seen = append(m.seen, req.Params)
	if len(m.steps) == 0 {
		return nil, fmt.Errorf("the script has no more turns")
	}
	s := m.steps[0]
	m.steps = m.steps[1:]
	if len(s.calls) == 0 {
		return &mcp.CreateMessageWithToolsResult{Role: "assistant", Model: "scripted", StopReason: "endTurn", Content: []mcp.Content{&mcp.TextContent{Text: s.text}}}, nil
	}
	res := &mcp.CreateMessageWithToolsResult{Role: "assistant", Model: "scripted", StopReason: "toolUse"}
	for i, c := range s.calls {
		res.Content = append(res.Content, &mcp.ToolUseContent{ID: fmt.Sprintf("call_%d_%d", len(m.seen), i), Name: c.name, Input: c.args})
	}
	return res, nil
}

// toolResults returns the text of the tool results the model was sent in
// request n (0-based), with whether each was an error.
func (m *scriptedModel) toolResults(t *testing.T, n int) []string {
	t.Helper()
	m.mu.Lock()
	defer m.mu.Unlock()
	if n >= len(m.seen) {
		t.Fatalf("the model saw %d requests, not %d", len(m.seen), n+1)
	}
	msgs := m.seen[n].Messages
	last := msgs[len(msgs)-1]
	var out []string
	for _, c := range last.Content {
		if r, ok := c.(*mcp.ToolResultContent); ok {
			text := ""
			for _, rc := range r.Content {
				text += rc.(*mcp.TextContent).Text
			}
			out = append(out, fmt.Sprintf("error=%v %s", r.IsError, text))
		}
	}
	return out
}

// offered returns the names of the tools offered in request n.
func (m *scriptedModel) offered(n int) []string {
	m.mu.Lock()
	defer m.mu.Unlock()
	var names []string
	for _, t := range m.seen[n].Tools {
		names = append(names, t.Name)
	}
	return names
}

// noModelEnv clears the model APIs' variables, so that only what a test
// configures counts, and gives a home of the test's own.
func noModelEnv(t *testing.T) string {
	t.Helper()
	for _, k := range []string{hands.EnvAnthropicKey, hands.EnvAnthropicURL, hands.EnvOpenAIKey, hands.EnvOpenAIBaseURL} {
		t.Setenv(k, "")
	}
	home := t.TempDir()
	t.Setenv("HOME", home)
	return home
}

// agentClient starts a server over root and connects a client on protocol
// 2025-11-25 whose model follows m (nil: a client without sampling).
func agentClient(t *testing.T, opts hands.Options, m *scriptedModel) *mcp.ClientSession {
	t.Helper()
	opts.ProjectSettings = true
	rt, err := hands.New(opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { rt.Close() })
	srv := mcpserver.New(rt, mcpserver.Options{})
	st, ct := mcp.NewInMemoryTransports()
	ctx := context.Background()
	if _, err := srv.Connect(ctx, st); err != nil {
		t.Fatal(err)
	}
	var copts *mcp.ClientOptions
	if m != nil {
		copts = &mcp.ClientOptions{CreateMessageWithToolsHandler: m.handle}
	}
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "agent-host", Version: "1"}, copts).Connect(ctx, ct, &mcp.ClientSessionOptions{ProtocolVersion: "2025-11-25"})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close(); srv.Close() })
	return cs
}

func callTool(t *testing.T, cs *mcp.ClientSession, name string, args map[string]any) (string, bool) {
	t.Helper()
	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: name, Arguments: args})
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	var text strings.Builder
	for _, c := range res.Content {
		text.WriteString(c.(*mcp.TextContent).Text)
	}
	return text.String(), res.IsError
}

func project(t *testing.T, files map[string]string) string {
	t.Helper()
	root := t.TempDir()
	for name, content := range files {
		p := filepath.Join(root, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return root
}

// TestTaskExploreGrepsAndReads: an Explore agent, run on the client's
// model through sampling with tools, greps, reads what it found, and its
// final text is the task result, in Claude Code's form; it is offered no
// tool that changes files.
func TestTaskExploreGrepsAndReads(t *testing.T) {
	noModelEnv(t)
	root := project(t, map[string]string{"src/a.go": "package a\n\n// needle marks the spot\nfunc A() {}\n", "src/b.go": "package b\n"})
	m := &scriptedModel{steps: []step{
		{calls: []toolUse{{"grep", map[string]any{"pattern": "needle", "path": root}}}},
		{calls: []toolUse{{"view", map[string]any{"path": filepath.Join(root, "src/a.go")}}}},
		{text: "The needle is in src/a.go, above func A."},
	}}
	cs := agentClient(t, hands.Options{Roots: []string{root}}, m)
	text, isErr := callTool(t, cs, "task", map[string]any{"description": "find the needle", "prompt": "Where is the needle?", "subagent_type": "Explore"})
	if isErr || !strings.HasPrefix(text, "The needle is in src/a.go, above func A.\n\nagentId: a") ||
		!strings.Contains(text, "(for resuming to continue this agent's work if needed)\n<usage>tool_uses: 2\nduration_ms: ") {
		t.Fatalf("task result (error %v):\n%s", isErr, text)
	}
	if got := m.toolResults(t, 1); len(got) != 1 || !strings.Contains(got[0], "error=false") || !strings.Contains(got[0], "src/a.go") {
		t.Fatalf("grep's result as the model read it: %q", got)
	}
	if got := m.toolResults(t, 2); len(got) != 1 || !strings.Contains(got[0], "needle marks the spot") {
		t.Fatalf("view's result as the model read it: %q", got)
	}
	offered := m.offered(0)
	for _, banned := range []string{"create_file", "str_replace", "multi_edit", "notebook_edit", "task", "exit_plan_mode"} {
		if slices.Contains(offered, banned) {
			t.Errorf("Explore was offered %s: %v", banned, offered)
		}
	}
	if !slices.Contains(offered, "grep") || !slices.Contains(offered, "view") || !slices.Contains(offered, "bash") {
		t.Errorf("Explore lacks its tools: %v", offered)
	}
	if m.seen[0].SystemPrompt == "" || m.seen[0].Messages[0].Content[0].(*mcp.TextContent).Text != "Where is the needle?" {
		t.Errorf("first request: system %q, messages %+v", m.seen[0].SystemPrompt, m.seen[0].Messages)
	}
}

// TestTaskGeneralPurposeEdits: a general-purpose agent reads and edits a
// file through the pipeline; the edit is on disk.
func TestTaskGeneralPurposeEdits(t *testing.T) {
	noModelEnv(t)
	root := project(t, map[string]string{"conf.txt": "level = 1\n"})
	p := filepath.Join(root, "conf.txt")
	m := &scriptedModel{steps: []step{
		{calls: []toolUse{{"view", map[string]any{"path": p}}}},
		{calls: []toolUse{{"str_replace", map[string]any{"path": p, "old_str": "level = 1", "new_str": "level = 2"}}}},
		{text: "Raised the level to 2."},
	}}
	cs := agentClient(t, hands.Options{Roots: []string{root}}, m)
	text, isErr := callTool(t, cs, "task", map[string]any{"description": "raise the level", "prompt": "Set level to 2 in conf.txt", "subagent_type": "general-purpose"})
	if isErr || !strings.HasPrefix(text, "Raised the level to 2.") {
		t.Fatalf("task result (error %v): %s", isErr, text)
	}
	if b, _ := os.ReadFile(p); string(b) != "level = 2\n" {
		t.Fatalf("conf.txt holds %q", b)
	}
	if got := m.toolResults(t, 2); len(got) != 1 || !strings.Contains(got[0], "error=false") {
		t.Fatalf("str_replace's result: %q", got)
	}
}

// TestTaskReadOnlyAgentCannotWrite: an Explore agent that calls a write
// tool, and then tries a write through the shell, is refused both times,
// and nothing is written.
func TestTaskReadOnlyAgentCannotWrite(t *testing.T) {
	noModelEnv(t)
	root := project(t, map[string]string{"keep.txt": "original\n"})
	m := &scriptedModel{steps: []step{
		{calls: []toolUse{{"create_file", map[string]any{"path": filepath.Join(root, "new.txt"), "content": "x"}}}},
		{calls: []toolUse{{"bash", map[string]any{"command": "echo changed > keep.txt"}}}},
		{text: "I could not write."},
	}}
	cs := agentClient(t, hands.Options{Roots: []string{root}}, m)
	text, isErr := callTool(t, cs, "task", map[string]any{"description": "try writing", "prompt": "write", "subagent_type": "Explore"})
	if isErr || !strings.HasPrefix(text, "I could not write.") {
		t.Fatalf("task result (error %v): %s", isErr, text)
	}
	if got := m.toolResults(t, 1); len(got) != 1 || !strings.HasPrefix(got[0], "error=true") {
		t.Fatalf("create_file inside Explore: %q", got)
	}
	if got := m.toolResults(t, 2); len(got) != 1 || !strings.HasPrefix(got[0], "error=true") {
		t.Fatalf("a shell write inside Explore: %q", got)
	}
	if _, err := os.Stat(filepath.Join(root, "new.txt")); !os.IsNotExist(err) {
		t.Fatalf("new.txt exists: %v", err)
	}
	if b, _ := os.ReadFile(filepath.Join(root, "keep.txt")); string(b) != "original\n" {
		t.Fatalf("keep.txt holds %q", b)
	}
}

// TestTaskDepthExceeded: with subagents one level deep at most, a
// subagent's own task call is refused with a message the model reads, and
// the agent still answers.
func TestTaskDepthExceeded(t *testing.T) {
	noModelEnv(t)
	root := project(t, nil)
	m := &scriptedModel{steps: []step{
		{calls: []toolUse{{"task", map[string]any{"description": "go deeper", "prompt": "again", "subagent_type": "general-purpose"}}}},
		{text: "Done without help."},
	}}
	cs := agentClient(t, hands.Options{Roots: []string{root}, ModelAPI: hands.ModelOptions{MaxDepth: 1}}, m)
	text, isErr := callTool(t, cs, "task", map[string]any{"description": "nest", "prompt": "nest", "subagent_type": "general-purpose"})
	if isErr || !strings.HasPrefix(text, "Done without help.") {
		t.Fatalf("task result (error %v): %s", isErr, text)
	}
	if got := m.toolResults(t, 1); len(got) != 1 || !strings.HasPrefix(got[0], "error=true [AGENT_FAILED] agents nest too deep") {
		t.Fatalf("the nested task call: %q", got)
	}
	if len(m.seen) != 2 {
		t.Fatalf("the model saw %d requests: a nested agent ran", len(m.seen))
	}
}

// TestTaskTurnsBounded: an agent that never stops calling tools is stopped
// after max_turns, with an error saying so.
func TestTaskTurnsBounded(t *testing.T) {
	noModelEnv(t)
	root := project(t, map[string]string{"a.txt": "a\n"})
	var steps []step
	for range 5 {
		steps = append(steps, step{calls: []toolUse{{"glob", map[string]any{"pattern": "*.txt"}}}})
	}
	m := &scriptedModel{steps: steps}
	cs := agentClient(t, hands.Options{Roots: []string{root}}, m)
	text, isErr := callTool(t, cs, "task", map[string]any{"description": "loop", "prompt": "loop", "subagent_type": "Explore", "max_turns": 3})
	if !isErr || !strings.Contains(text, "[AGENT_FAILED]") || !strings.Contains(text, "stopped after 3 turns") || len(m.seen) != 3 {
		t.Fatalf("task result (error %v, %d turns): %s", isErr, len(m.seen), text)
	}
}

// TestTaskWithoutModel: with no model configured and a client without
// sampling, task is not listed, and a call names what to configure.
func TestTaskWithoutModel(t *testing.T) {
	noModelEnv(t)
	cs := agentClient(t, hands.Options{Roots: []string{project(t, nil)}}, nil)
	res, err := cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, tl := range res.Tools {
		names = append(names, tl.Name)
	}
	if slices.Contains(names, "task") || !slices.Contains(names, "skill") {
		t.Fatalf("tools without a model: %v", names)
	}
	text, isErr := callTool(t, cs, "task", map[string]any{"description": "x", "prompt": "x", "subagent_type": "Explore"})
	if !isErr || !strings.Contains(text, "[MODEL_NOT_CONFIGURED]") || !strings.Contains(text, "ANTHROPIC_API_KEY") || !strings.Contains(text, "OPENAI_BASE_URL") {
		t.Fatalf("task without a model: %s", text)
	}
	// A client that samples with tools sees it.
	cs = agentClient(t, hands.Options{Roots: []string{project(t, nil)}}, &scriptedModel{})
	res, err = cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.ContainsFunc(res.Tools, func(tl *mcp.Tool) bool { return tl.Name == "task" }) {
		t.Fatal("a sampling client is not offered task")
	}
}

// TestSkillsFromHomeAndProject: skills of the project's and the user's
// .claude/skills are listed in the skill tool's description; a call
// returns the instructions and the folder; a SKILL.md with bad
// frontmatter is reported naming the file and left out.
func TestSkillsFromHomeAndProject(t *testing.T) {
	home := noModelEnv(t)
	root := project(t, map[string]string{
		".claude/skills/release/SKILL.md":  "---\nname: release\ndescription: Cut a release of this project.\nallowed-tools: Bash, Read\n---\n\n# Release\n\nRun scripts/release.sh with the version.\n",
		".claude/skills/release/notes.md":  "notes\n",
		".claude/skills/broken/SKILL.md":   "---\nname: broken\n---\nno description\n",
		".claude/agents/reviewer.md":       "---\nname: reviewer\ndescription: Reviews a change for bugs.\ntools: Read, Grep\n---\nYou review code.\n",
		".claude/agents/bad.md":            "no frontmatter here\n",
		".claude/skills/not-a-skill/x.txt": "x\n",
	})
	userSkill := filepath.Join(home, ".claude", "skills", "pdf-forms", "SKILL.md")
	os.MkdirAll(filepath.Dir(userSkill), 0o755)
	os.WriteFile(userSkill, []byte("---\nname: pdf-forms\ndescription: Fill PDF forms.\n---\nUse the form filler.\n"), 0o644)
	rt, err := hands.New(hands.Options{Roots: []string{root}, ProjectSettings: true})
	if err != nil {
		t.Fatal(err)
	}
	defer rt.Close()
	problems := strings.Join(rt.Problems(), "\n")
	if !strings.Contains(problems, filepath.Join(root, ".claude/skills/broken/SKILL.md")+": frontmatter: description is missing") ||
		!strings.Contains(problems, filepath.Join(root, ".claude/agents/bad.md")+": no frontmatter") || len(rt.Problems()) != 2 {
		t.Fatalf("problems:\n%s", problems)
	}
	cs := agentClient(t, hands.Options{Roots: []string{root}}, &scriptedModel{})
	res, err := cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	var skillDesc, taskDesc string
	for _, tl := range res.Tools {
		switch tl.Name {
		case "skill":
			skillDesc = tl.Description
		case "task":
			taskDesc = tl.Description
		}
	}
	if !strings.Contains(skillDesc, "Available skills:\n- release: Cut a release of this project.\n- pdf-forms: Fill PDF forms.\n") || strings.Contains(skillDesc, "broken") {
		t.Fatalf("skill description:\n%s", skillDesc)
	}
	if !strings.Contains(taskDesc, "- reviewer: Reviews a change for bugs. (Tools: view, grep)") || strings.Contains(taskDesc, "bad") ||
		!strings.Contains(taskDesc, "- Explore: Fast agent") {
		t.Fatalf("task description:\n%s", taskDesc)
	}
	text, isErr := callTool(t, cs, "skill", map[string]any{"skill": "release", "args": "1.2.0"})
	want := fmt.Sprintf("Launching skill: releaseBase directory for this skill: %s\n\n# Release\n\nRun scripts/release.sh with the version.\n\n\nARGUMENTS: 1.2.0", filepath.Join(root, ".claude/skills/release"))
	if isErr || text != want {
		t.Fatalf("skill result (error %v):\n%s\nwant:\n%s", isErr, text, want)
	}
	text, isErr = callTool(t, cs, "skill", map[string]any{"skill": "broken"})
	if !isErr || !strings.Contains(text, `unknown skill "broken"; the skills are: release, pdf-forms`) {
		t.Fatalf("unknown skill: %s", text)
	}
	text, isErr = callTool(t, cs, "task", map[string]any{"description": "x", "prompt": "x", "subagent_type": "bad"})
	if !isErr || !strings.Contains(text, "Agent type 'bad' not found. Available agents: Bash, general-purpose, Explore, Plan, reviewer") {
		t.Fatalf("unknown agent: %s", text)
	}
}

var _ = json.Marshal
