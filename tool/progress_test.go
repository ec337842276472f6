package tool_test

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/hands-dev/hands/tool"
)

// reporting is a tool that sends one progress report with its text.
func reporting() tool.Tool {
	return tool.New(tool.Spec[echoIn]{Name: "report", Description: "reports"},
		func(_ context.Context, env *tool.Env, in echoIn) (echoOut, error) {
			if env.Progress != nil {
				env.Progress(tool.Progress{Message: in.Text, CallID: "forged", Tool: "forged"})
			}
			return echoOut{Echo: in.Text}, nil
		})
}

// TestProgressNamesTheCall: the executor names the call in each report
// (a tool cannot speak for another call), and a context from
// WithProgress takes the reports instead of the Env's callback.
func TestProgressNamesTheCall(t *testing.T) {
	e := &tool.Executor{Registry: tool.NewRegistry(reporting())}
	var fromEnv, fromCtx []tool.Progress
	env := &tool.Env{Progress: func(p tool.Progress) { fromEnv = append(fromEnv, p) }}
	e.Execute(context.Background(), env, tool.Call{ID: "c1", Name: "report", Input: json.RawMessage(`{"text":"one"}`)})
	if len(fromEnv) != 1 || fromEnv[0] != (tool.Progress{CallID: "c1", Tool: "report", Message: "one"}) {
		t.Fatalf("Env.Progress got %+v", fromEnv)
	}
	ctx := tool.WithProgress(context.Background(), func(p tool.Progress) { fromCtx = append(fromCtx, p) })
	e.Execute(ctx, env, tool.Call{ID: "c2", Name: "report", Input: json.RawMessage(`{"text":"two"}`)})
	if len(fromCtx) != 1 || fromCtx[0] != (tool.Progress{CallID: "c2", Tool: "report", Message: "two"}) || len(fromEnv) != 1 {
		t.Fatalf("WithProgress got %+v, Env.Progress %+v", fromCtx, fromEnv)
	}
	// No callback anywhere: the tool sees none.
	res := e.Execute(context.Background(), &tool.Env{}, tool.Call{Name: "report", Input: json.RawMessage(`{"text":"three"}`)})
	if res.IsError {
		t.Fatal(res.TextOf())
	}
}
