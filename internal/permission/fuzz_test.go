package permission

import (
	"context"
	"testing"

	"github.com/hands-dev/hands/internal/jobs"
	"github.com/hands-dev/hands/tool"
)

// FuzzParse checks that any rule text parses or fails with an error,
// never a panic, and that a parsed rule matches without panicking.
func FuzzParse(f *testing.F) {
	for _, s := range []string{"Bash", "Bash(npm run test:*)", "Bash(git diff)", "Read(./secrets/**)",
		"Edit(/src/**/*.go)", "Write(~/notes/*)", "Read(//etc/**)", "WebFetch(domain:example.com)",
		"mcp__github", "mcp__github__create_issue", "Bash(git * main)", "Bash(a && b)", "Bash('x)", "Read(!x)"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		r, err := Parse(s, aliases, Bases{Project: root, Cwd: root, Home: home})
		if err != nil {
			return
		}
		if r.Text != s {
			t.Fatalf("Text %q, want %q", r.Text, s)
		}
		switch r.Kind {
		case Command:
			r.matchCommand([]word{{s: "git", known: true}, {}, {s: "main", known: true}}, false)
			r.matchCommand([]word{{s: "git", known: true}, {s: "x", known: true}}, true)
		case Path:
			r.matchPath(root + "/src/a.go")
			r.matchPath("/")
			r.SandboxPattern()
		case Domain:
			r.matchDomain("example.com")
		}
	})
}

// FuzzBash checks the command matcher on any command line: no panic, and a
// command that starts with a denied command is never allowed, whatever
// follows it.
func FuzzBash(f *testing.F) {
	for _, c := range bashCases {
		f.Add(c.cmd)
	}
	p := engine(f, denyRm, Default)
	f.Fuzz(func(t *testing.T, cmd string) {
		ctx := context.Background()
		p.Check(ctx, bashInfo, tool.Call{}, bashIn{cmd: cmd})
		if d, reason := p.Check(ctx, bashInfo, tool.Call{}, bashIn{cmd: "rm x; " + cmd}); d == tool.Allow {
			t.Fatalf("%q after a denied command was allowed: %s", cmd, reason)
		}
	})
}

// FuzzReadOnlyFromAnalysis: the policy's read-only verdict comes from the
// parse analyze keeps after walking it, which must be the verdict of the
// command parsed afresh: the walk changes nothing in the parse.
func FuzzReadOnlyFromAnalysis(f *testing.F) {
	for _, c := range bashCases {
		f.Add(c.cmd)
	}
	for _, s := range []string{"ls", "git log | head", "cat a > /dev/null", "(ls; pwd) | wc", "bash -c 'ls'", "find . -delete", "x=1 ls", "cd /"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, cmd string) {
		a := analyze(cmd, env{dir: root, home: home, roots: []string{root}})
		if got, want := jobs.ReadOnlyFile(a.file), jobs.IsReadOnly(cmd); got != want {
			t.Fatalf("%q: read-only %v from the analysis, %v parsed afresh", cmd, got, want)
		}
	})
}
