package tools_test

import (
	"bufio"
	"encoding/json"
	"os"
	"regexp"
	"strings"
	"testing"

	"golang.org/x/tools/txtar"
)

// TestPlanTextsRecorded checks the claude goldens of ExitPlanMode and
// AskUserQuestion against what Claude Code 2.1.7 itself returned, recorded
// by the oracle with its permission prompts answered
// (../profile/testdata/claude/plan_recorded.jsonl): each recorded result
// must appear, byte for byte, in the golden that covers it.
func TestPlanTextsRecorded(t *testing.T) {
	goldens := map[string]string{
		"plan_exit_approve":       "testdata/exit_plan_mode/claude.txtar",
		"plan_exit_empty_approve": "testdata/exit_plan_mode/claude_no_plan.txtar",
		"ask_multi":               "testdata/ask_user_question/claude.txtar",
		"ask_quotes":              "testdata/ask_user_question/claude.txtar",
	}
	f, err := os.Open("../profile/testdata/claude/plan_recorded.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	planFile := regexp.MustCompile(`\{HOME\}/\.claude/plans/[a-z-]+\.md`)
	seen := 0
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		var rec struct {
			ID      string `json:"id"`
			Content []struct {
				Text string `json:"text"`
			} `json:"content"`
		}
		if err := json.Unmarshal(sc.Bytes(), &rec); err != nil {
			t.Fatal(err)
		}
		golden, ok := goldens[rec.ID]
		if !ok {
			continue
		}
		seen++
		var text []string
		for _, c := range rec.Content {
			text = append(text, c.Text)
		}
		want := planFile.ReplaceAllString(strings.Join(text, "\n"), "$$ROOT/.claude/plans/$$SESSION.md")
		ar, err := txtar.ParseFile(golden)
		if err != nil {
			t.Fatal(err)
		}
		var got string
		for _, fl := range ar.Files {
			if fl.Name == "want" {
				got = string(fl.Data)
			}
		}
		if !strings.Contains(got, want) {
			t.Errorf("%s: %s does not hold Claude Code's recorded text:\n%s", rec.ID, golden, want)
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	if seen != len(goldens) {
		t.Errorf("found %d of the %d recorded results", seen, len(goldens))
	}
}
