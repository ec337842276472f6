package profile_test

import (
	"bufio"
	"context"
	"encoding/json"
	"github.com/hands-dev/hands/internal/claudedirs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/hands-dev/hands"
	"github.com/hands-dev/hands/model"
	"github.com/hands-dev/hands/tool"
)

// TestTaskTextsRecorded plays the oracle's Task, TaskOutput and Skill
// scenarios against the claude profile and compares each result, block
// by block, with what Claude Code 2.1.7 returned
// (testdata/claude/task_recorded.jsonl, recorded by the oracle's API
// driver with a mock that also answers the subagents' own turns:
// testdata/claude/oracle_task.patch, applied to a copy of
// ../shared/oracles/claude, then `node oracle.mjs --driver api --only
// task_fg_text,…,skill_unknown --out task_recorded.jsonl`; see
// oracle_task.txtar for the same calls as a golden). The model here
// answers as that mock did: a prompt holding SUBAGENT_TOOL reads
// README.md first. What may differ, and is normalized: the run's paths and
// ids; the output file's directory (Claude Code's /tmp/claude/SLUG/tasks,
// Hands's private tasks/); in the unknown type's list, Claude Code's own
// statusline-setup agent; and in the background agent's transcript the
// fields Claude Code fills from state Hands has not (plan slug, git
// branch, API message and request ids, its version), compared line by
// line as JSON.
func TestTaskTextsRecorded(t *testing.T) {
	recs := readRecorded(t, "testdata/claude/task_recorded.jsonl")
	root := t.TempDir()
	t.Setenv("HOME", t.TempDir())
	files := map[string]string{
		"README.md":                      "# Fixture Project\n",
		".claude/skills/greet/SKILL.md":  "---\nname: greet\ndescription: Greets someone by name.\n---\n\n# Greet\n\nSay hello to the person named in the arguments.\n",
		".claude/skills/greet/extra.txt": "extra file\n",
		".claude/agents/reviewer.md":     "---\nname: reviewer\ndescription: Reviews code for bugs.\ntools: Read, Grep\n---\n\nYou review code.\n",
	}
	for name, data := range files {
		p := filepath.Join(root, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	chat := model.ChatFunc(func(_ context.Context, req *model.Request) (*model.Reply, error) {
		prompt := req.Messages[0].Content[0].Text
		last := req.Messages[len(req.Messages)-1]
		usage := model.Usage{InputTokens: 1200, OutputTokens: 34}
		if strings.Contains(prompt, "SUBAGENT_TOOL") && len(req.Messages) == 1 {
			in, _ := json.Marshal(map[string]string{"file_path": filepath.Join(root, "README.md")})
			return &model.Reply{Content: []model.Block{{Type: model.ToolUse, ID: "toolu_sub_1", Name: "Read", Input: in}}, StopReason: "tool_use", Usage: usage}, nil
		}
		text := "Subagent done."
		if last.Content[0].Type == model.ToolResult {
			text += " The file starts: " + strings.TrimSpace(strings.SplitN(last.Content[0].Text, "\n", 2)[0])
		}
		return &model.Reply{Content: []model.Block{{Type: model.Text, Text: text}}, StopReason: "end_turn", Usage: usage, Model: "claude-sonnet-4-5"}, nil
	})
	rt, err := hands.New(hands.Options{Roots: []string{root}, Profile: "claude", ProjectSettings: true, Model: chat})
	if err != nil {
		t.Fatal(err)
	}
	defer rt.Close()
	if p := rt.Problems(); len(p) > 0 {
		t.Fatalf("start-up problems: %v", p)
	}
	sess, err := rt.NewSession()
	if err != nil {
		t.Fatal(err)
	}
	defer sess.Close()
	// Background output goes where Claude Code keeps it (TestMain points
	// TEMP at a temporary directory).
	_, temp := claudedirs.Dirs("", "")
	tasks := filepath.Join(temp, "claude", claudedirs.Slug(root), "tasks")
	var agents []string
	ourID := regexp.MustCompile(`\ba[0-9a-f]{8}\b`)
	norm := func(s string) string {
		s = strings.ReplaceAll(s, tasks, "{TASKS}")
		s = strings.ReplaceAll(s, root, "{ROOT}")
		return ourID.ReplaceAllString(s, "{ID}")
	}
	theirID := regexp.MustCompile(`\{(AGENT|TASK)_ID_\d+\}`)
	normRec := func(s string) string {
		s = strings.ReplaceAll(s, "/tmp/claude/{ROOT_SLUG}/tasks", "{TASKS}")
		s = strings.Replace(s, "statusline-setup, ", "", 1) // Claude Code's own agent
		return theirID.ReplaceAllString(s, "{ID}")
	}
	for _, rec := range recs {
		t.Run(rec.ID, func(t *testing.T) {
			if why, ok := notYet[rec.ID]; ok {
				t.Skip(why)
			}
			args := rec.Args
			if id, ok := args["task_id"]; ok && id != "" && len(agents) > 0 {
				args["task_id"] = agents[len(agents)-1]
			}
			in, _ := json.Marshal(args)
			in = []byte(strings.ReplaceAll(string(in), "{ROOT}", root))
			res := sess.Call(context.Background(), tool.Call{Name: rec.Tool, Input: in})
			var got, want []string
			for _, c := range res.Content {
				got = append(got, c.Text)
				agents = append(agents, regexp.MustCompile(`agentId: (a[0-9a-f]{8})`).FindAllString(c.Text, -1)...)
			}
			for i, id := range agents {
				agents[i] = strings.TrimPrefix(id, "agentId: ")
			}
			for _, c := range append(rec.Content, rec.Extra...) {
				want = append(want, c.Text)
			}
			if res.IsError != rec.IsError || len(got) != len(want) {
				t.Fatalf("got isError %v, %d blocks:\n%q\nClaude Code: isError %v, %d blocks:\n%q", res.IsError, len(got), got, rec.IsError, len(want), want)
			}
			for i := range got {
				g, w := norm(got[i]), normRec(want[i])
				if strings.HasPrefix(rec.ID, "task_bg_output") {
					g, w = sameTranscript(t, g, w)
				}
				if g != w {
					t.Errorf("block %d:\n got %q\nwant %q", i, g, w)
				}
			}
		})
	}
}

// notYet are recorded scenarios that need what another issue builds.
var notYet = map[string]string{
	"task_bg_output_file": "Read of the output file, outside the roots: Read of the session's own tasks/ files is issue 11's (helper h1 at the time of writing)",
}

// recorded is one oracle record.
type recorded struct {
	ID      string         `json:"id"`
	Tool    string         `json:"tool"`
	Args    map[string]any `json:"args"`
	IsError bool           `json:"isError"`
	Content []struct {
		Text string `json:"text"`
	} `json:"content"`
	// Extra is what Claude Code adds beside the result as a message of
	// its own (a skill's instructions).
	Extra []struct {
		Text string `json:"text"`
	} `json:"extra"`
}

func readRecorded(t *testing.T, path string) []recorded {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []recorded
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		var r recorded
		if err := json.Unmarshal(sc.Bytes(), &r); err != nil {
			t.Fatal(err)
		}
		out = append(out, r)
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

// transcriptLine matches a transcript's lines.
var transcriptLine = regexp.MustCompile(`(?m)^\{.*\}$`)

// sameTranscript checks that the transcript lines of got (Hands's) carry,
// line for line, Claude Code's fields with Claude Code's values, save the
// ones that name the run (ids, times, version) and the ones Hands has no
// state for, and that the ids chain as Claude Code's do. It returns the
// two texts with the lines cut out, to compare the rest exactly.
func sameTranscript(t *testing.T, got, want string) (string, string) {
	t.Helper()
	gl, wl := transcriptLine.FindAllString(got, -1), transcriptLine.FindAllString(want, -1)
	if len(gl) != len(wl) || len(gl) == 0 {
		t.Fatalf("transcript of %d lines, Claude Code's %d:\n%s\n%s", len(gl), len(wl), got, want)
	}
	runOwn := []string{"sessionId", "uuid", "parentUuid", "timestamp", "version"}
	claudeOnly := []string{"slug", "gitBranch", "requestId"}
	var prevUUID any
	for i := range gl {
		var g, w map[string]any
		if err := json.Unmarshal([]byte(gl[i]), &g); err != nil {
			t.Fatalf("line %d: %v: %s", i+1, err, gl[i])
		}
		if err := json.Unmarshal([]byte(wl[i]), &w); err != nil {
			t.Fatal(err)
		}
		if g["parentUuid"] != prevUUID {
			t.Errorf("line %d: parentUuid %v, want the previous line's uuid %v", i+1, g["parentUuid"], prevUUID)
		}
		prevUUID = g["uuid"]
		var gk, wk []string
		for k := range g {
			gk = append(gk, k)
		}
		for k := range w {
			if !slices.Contains(claudeOnly, k) {
				wk = append(wk, k)
			}
		}
		slices.Sort(gk)
		slices.Sort(wk)
		if !slices.Equal(gk, wk) {
			t.Errorf("line %d: fields %v, Claude Code's %v", i+1, gk, wk)
		}
		for _, k := range wk {
			if slices.Contains(runOwn, k) || k == "message" {
				continue
			}
			if gb, _ := json.Marshal(g[k]); string(gb) != mustJSON(w[k]) {
				t.Errorf("line %d: %s is %s, Claude Code's %s", i+1, k, gb, mustJSON(w[k]))
			}
		}
		gm, _ := g["message"].(map[string]any)
		wm, _ := w["message"].(map[string]any)
		for _, k := range []string{"role", "content", "type", "model", "stop_reason", "stop_sequence"} {
			if mustJSON(gm[k]) != mustJSON(wm[k]) {
				t.Errorf("line %d: message.%s is %s, Claude Code's %s", i+1, k, mustJSON(gm[k]), mustJSON(wm[k]))
			}
		}
		if u, ok := wm["usage"].(map[string]any); ok {
			gu, _ := gm["usage"].(map[string]any)
			for _, k := range []string{"input_tokens", "output_tokens"} {
				if mustJSON(gu[k]) != mustJSON(u[k]) {
					t.Errorf("line %d: message.usage.%s is %s, Claude Code's %s", i+1, k, mustJSON(gu[k]), mustJSON(u[k]))
				}
			}
		}
	}
	return transcriptLine.ReplaceAllString(got, "{LINE}"), transcriptLine.ReplaceAllString(want, "{LINE}")
}

func mustJSON(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}
