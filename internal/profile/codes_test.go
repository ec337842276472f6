package profile_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/hands-dev/hands/internal/profile"
	"github.com/hands-dev/hands/internal/tools"
	"github.com/hands-dev/hands/tool"
)

// TestEveryCodeRenders renders a failure with every code through every
// exposed tool of every profile: each gives text for the model and keeps
// the code in the structured content, so a client can branch on it.
func TestEveryCodeRenders(t *testing.T) {
	for _, name := range profile.Names() {
		p, err := profile.Get(name, tools.Limits{})
		if err != nil {
			t.Fatal(err)
		}
		render := p.RenderFunc([]string{"/root"})
		for _, tl := range p.Apply(tools.Builtins(tools.Limits{})) {
			info := tl.Info()
			for _, code := range tool.Codes() {
				e := tool.Errorf(code, "%s failed for /root/a.txt", tool.ToolName(info.Name)).With("path", "/root/a.txt")
				res := tool.ErrorResult(tool.Call{Name: info.Name}, e)
				if render != nil {
					render(info, &res, nil)
				}
				text := res.TextOf()
				if !res.IsError || res.Code != code || strings.TrimSpace(text) == "" {
					t.Errorf("%s %s %s: error %v code %s text %q", name, info.Name, code, res.IsError, res.Code, text)
				}
				b, _ := json.Marshal(res.Structured)
				if !strings.Contains(string(b), `"code":"`+code.String()+`"`) && !strings.Contains(string(b), `"`+code.String()+`"`) {
					t.Errorf("%s %s %s: structured content %s lacks the code", name, info.Name, code, b)
				}
				if (name == "native" || name == "taskdaemon") && !strings.HasPrefix(text, "["+code.String()+"] ") {
					t.Errorf("%s %s %s: text %q does not start with the code", name, info.Name, code, text)
				}
			}
		}
	}
}

// TestProfilesFailLoud checks that a profile table naming a core tool that
// does not exist panics when applied, and one naming a parameter its core
// lacks when the tool is first described (its schema is built then: every
// profile's tools are listed in the tests).
func TestProfilesFailLoud(t *testing.T) {
	bad := []profile.Profile{
		{Name: "typo", Tools: []profile.Entry{{Core: "raed", Name: "Read"}}},
		{Name: "param", Tools: []profile.Entry{{Core: "read", Name: "Read", Params: []profile.Param{{Name: "file", Core: "no_such"}}}}},
		{Name: "twice", Tools: []profile.Entry{{Core: "read", Name: "Read"}, {Core: "write", Name: "Read"}}},
	}
	for _, p := range bad {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("profile %s applied without a panic", p.Name)
				}
			}()
			for _, t := range p.Apply(tools.Builtins(tools.Limits{})) {
				t.Info()
			}
		}()
	}
}
