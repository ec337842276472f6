package tooltest

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"sync"
	"testing"

	"github.com/hands-dev/hands/model"
)

// scriptedChat is a model that answers with the turns of a JSON file, in
// order: {"text": "..."} ends the agent's loop, {"calls": [{"name": ...,
// "input": {...}}]} calls tools.
func scriptedChat(t *testing.T, path string) model.ChatFunc {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var turns []struct {
		Text  string `json:"text"`
		Calls []struct {
			Name  string          `json:"name"`
			Input json.RawMessage `json:"input"`
		} `json:"calls"`
	}
	if err := json.Unmarshal(data, &turns); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	var mu sync.Mutex
	n := 0
	return func(context.Context, *model.Request) (*model.Reply, error) {
		mu.Lock()
		defer mu.Unlock()
		if n >= len(turns) {
			return nil, errors.New("the script has no more turns")
		}
		turn := turns[n]
		n++
		r := &model.Reply{Usage: model.Usage{InputTokens: 100, OutputTokens: 10}}
		if len(turn.Calls) == 0 {
			r.Content = []model.Block{{Type: model.Text, Text: turn.Text}}
			return r, nil
		}
		for i, c := range turn.Calls {
			r.Content = append(r.Content, model.Block{Type: model.ToolUse, ID: fmt.Sprintf("call_%d_%d", n, i), Name: c.Name, Input: c.Input})
		}
		return r, nil
	}
}
