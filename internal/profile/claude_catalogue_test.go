package profile_test

import (
	"encoding/json"
	"os"
	"reflect"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/hands-dev/hands/internal/agent"
	"github.com/hands-dev/hands/internal/profile"
	"github.com/hands-dev/hands/internal/skill"
	"github.com/hands-dev/hands/internal/tools"
	"github.com/hands-dev/hands/tool"
)

// claudeUnbuilt are the tools of Claude Code 2.1.7 that Hands does not
// have yet; the claude profile lists them once they exist.
var claudeUnbuilt = []string{}

// claudeOwnAgent is the agent type of Claude Code 2.1.7 that configures
// its own status line, which Hands has no use for: its line is left out of
// the recorded Task description before comparing.
const claudeOwnAgent = "- statusline-setup: Use this agent to configure the user's Claude Code status line setting. (Tools: Read, Edit)\n"

// filled is a description as the runtime fills it: the built-in agent
// types and no skills.
func filled(d string, listed []tool.Tool) string {
	names := map[string]string{}
	for _, t := range listed {
		names[t.Info().Core] = t.Info().Name
	}
	d = strings.ReplaceAll(d, tools.AgentsMarker, agent.Describe(agent.Builtins(), func(n string) string { return names[n] }))
	return strings.ReplaceAll(d, tools.SkillsMarker, skill.Describe(nil))
}

// recordedDate is the date in a recorded description.
var recordedDate = regexp.MustCompile(`(Today's date is )\d{4}-\d{2}-\d{2}`)

// claudeUnbuiltParams are parameters of Claude Code 2.1.7's tools that
// Hands does not have: Bash's _simulatedSedEdit carries the result of Claude
// Code's own sed preview, which its user interface computes.
var claudeUnbuiltParams = map[string][]string{"Bash": {"_simulatedSedEdit"}}

// TestClaudeCatalogueIsClaudeCode checks the claude profile's tool listing
// against the definitions Claude Code 2.1.7 sends the model, recorded by
// the oracle in testdata/claude/tools_seen_by_model.json: the same tools in
// the same order (less the ones Hands lacks), each with the same
// description byte for byte and the same input schema.
func TestClaudeCatalogueIsClaudeCode(t *testing.T) {
	b, err := os.ReadFile("testdata/claude/tools_seen_by_model.json")
	if err != nil {
		t.Fatal(err)
	}
	var rec struct {
		ClaudeVersion string `json:"claudeVersion"`
		Tools         struct {
			Tools []struct {
				Name        string          `json:"name"`
				Description string          `json:"description"`
				InputSchema json.RawMessage `json:"inputSchema"`
			} `json:"tools"`
		} `json:"tools"`
	}
	if err := json.Unmarshal(b, &rec); err != nil {
		t.Fatal(err)
	}
	if rec.ClaudeVersion != "2.1.7 (Claude Code)" {
		t.Fatalf("the recording is of %q, not Claude Code 2.1.7", rec.ClaudeVersion)
	}
	// LSP is listed only when a plugin configures a language server; it
	// was recorded so, last in the list (lsp_seen_by_model.json).
	b, err = os.ReadFile("testdata/claude/lsp_seen_by_model.json")
	if err != nil {
		t.Fatal(err)
	}
	lspRec := rec
	lspRec.Tools.Tools = nil
	if err := json.Unmarshal(b, &lspRec); err != nil {
		t.Fatal(err)
	}
	if lspRec.ClaudeVersion != "2.1.7 (Claude Code)" || len(lspRec.Tools.Tools) != 1 {
		t.Fatalf("the LSP recording is of %q with %d tools", lspRec.ClaudeVersion, len(lspRec.Tools.Tools))
	}
	rec.Tools.Tools = append(rec.Tools.Tools, lspRec.Tools.Tools...)
	p, err := profile.Get("claude", tools.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	listed := p.Apply(tools.Builtins(tools.Limits{}))
	var names, want []string
	for _, tl := range listed {
		names = append(names, tl.Info().Name)
	}
	for _, w := range rec.Tools.Tools {
		if slices.Contains(claudeUnbuilt, w.Name) {
			continue
		}
		want = append(want, w.Name)
		i := slices.Index(names, w.Name)
		if i < 0 {
			continue
		}
		info := listed[i].Info()
		info.Description = filled(info.Description, listed)
		w.Description = strings.Replace(w.Description, claudeOwnAgent, "", 1)
		// WebSearch's description states the day it was recorded on; Hands
		// states the day it runs on.
		w.Description = recordedDate.ReplaceAllString(w.Description, "${1}"+tools.Limits{}.Today())
		if info.Description != w.Description {
			t.Errorf("%s: description differs from Claude Code's at byte %d:\n got %q\nwant %q", w.Name, firstDiff(info.Description, w.Description),
				around(info.Description, firstDiff(info.Description, w.Description)), around(w.Description, firstDiff(info.Description, w.Description)))
		}
		var got, exp any
		if err := json.Unmarshal(info.InputSchema, &got); err != nil {
			t.Fatalf("%s: schema: %v", w.Name, err)
		}
		if err := json.Unmarshal(w.InputSchema, &exp); err != nil {
			t.Fatalf("%s: recorded schema: %v", w.Name, err)
		}
		for _, p := range claudeUnbuiltParams[w.Name] {
			delete(exp.(map[string]any)["properties"].(map[string]any), p)
		}
		if !reflect.DeepEqual(got, exp) {
			t.Errorf("%s: input schema differs from Claude Code's:\n got %s\nwant %s", w.Name, info.InputSchema, w.InputSchema)
		}
	}
	if !slices.Equal(names, want) {
		t.Errorf("the claude profile lists %v; Claude Code 2.1.7 lists %v (less the tools Hands lacks)", names, want)
	}
}

func firstDiff(a, b string) int {
	i := 0
	for i < len(a) && i < len(b) && a[i] == b[i] {
		i++
	}
	return i
}

func around(s string, i int) string {
	lo, hi := max(0, i-40), min(len(s), i+60)
	return s[lo:hi]
}
