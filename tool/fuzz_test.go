package tool_test

import (
	"context"
	"encoding/json"
	"regexp"
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

// FuzzValidName: the loop of ValidName keeps the rule the regexp states.
func FuzzValidName(f *testing.F) {
	rule := regexp.MustCompile(`^[A-Za-z][A-Za-z0-9_-]{0,63}$`)
	for _, s := range []string{"", "a", "Read", "mcp__srv__t", "1a", "_a", "a b", "a\x00", "é", strings.Repeat("a", 64), strings.Repeat("a", 65), "a-1_B"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if got, want := tool.ValidName(s), rule.MatchString(s); got != want {
			t.Fatalf("ValidName(%q) = %v, the rule says %v", s, got, want)
		}
	})
}
