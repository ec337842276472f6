package tool_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/hands-dev/hands/tool"
)

type fuzzIn struct {
	Path  string   `json:"path"`
	N     int      `json:"n,omitzero"`
	Flag  *bool    `json:"flag,omitempty"`
	Items []string `json:"items,omitempty"`
	Sub   *struct {
		A string `json:"a"`
	} `json:"sub,omitempty"`
}

// FuzzExecuteArguments feeds arbitrary bytes as a call's arguments: the
// executor never panics, and a failure is always a coded error whose text
// starts with its code.
func FuzzExecuteArguments(f *testing.F) {
	for _, s := range []string{`{"path":"a"}`, `{}`, `null`, `[]`, `{"path":1}`, `{"path":"a","n":1.5}`, `{"path":"a","items":[1]}`, `{"path":"a","sub":{"a":2}}`, `{"bogus":true}`, `"x"`, `{`, ``} {
		f.Add([]byte(s))
	}
	e := &tool.Executor{Registry: tool.NewRegistry(tool.New(tool.Spec[fuzzIn]{Name: "f", ReadOnly: true},
		func(_ context.Context, _ *tool.Env, in fuzzIn) (echoOut, error) { return echoOut{Echo: in.Path}, nil }))}
	f.Fuzz(func(t *testing.T, data []byte) {
		res := e.Execute(context.Background(), nil, tool.Call{Name: "f", Input: json.RawMessage(data)})
		if res.IsError {
			if res.Code.IsZero() || !strings.HasPrefix(res.TextOf(), "["+res.Code.String()+"] ") {
				t.Fatalf("error without a code prefix: %q", res.TextOf())
			}
			if res.Code == tool.InternalError {
				t.Fatalf("internal error on input %q: %s", data, res.TextOf())
			}
		}
	})
}
