package hands

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"

	"mvdan.cc/sh/v3/syntax"

	"github.com/hands-dev/hands/internal/shellword"
)

// shellBuiltins are the names a hook command may run without a path: the
// shell runs them itself, so nothing on disk is involved.
var shellBuiltins = []string{
	":", ".", "[", "alias", "break", "cd", "command", "continue", "echo", "eval", "exec", "exit", "export",
	"false", "getopts", "printf", "pwd", "read", "readonly", "return", "set", "shift", "test", "trap",
	"true", "type", "ulimit", "umask", "unalias", "unset", "wait",
}

// resolveHookCommand makes a hook command run what the user configured,
// not what a shell command wrote: every program it names is resolved to
// an absolute path now, when the configuration is loaded (relative paths
// against base, the first root; bare names on PATH), and written into the
// command in place of the name. A program, or a file given to one as an
// operand (python3 hook.py), that lies inside a tree commands can write
// is refused: a command could rewrite it and have it run unconfined.
// $CLAUDE_PROJECT_DIR is base.
func resolveHookCommand(command, base string, writable []string) (string, error) {
	for _, v := range []string{"${CLAUDE_PROJECT_DIR}", "$CLAUDE_PROJECT_DIR"} {
		command = strings.ReplaceAll(command, v, base)
	}
	f, err := syntax.NewParser().Parse(strings.NewReader(command), "")
	if err != nil {
		return "", fmt.Errorf("hook command %q does not parse: %v", command, err)
	}
	type edit struct {
		from, to int
		with     string
	}
	var edits []edit
	var bad error
	inWritable := func(p string) (string, bool) {
		for _, w := range writable {
			if p == w || strings.HasPrefix(p, w+string(filepath.Separator)) {
				return w, true
			}
		}
		return "", false
	}
	syntax.Walk(f, func(n syntax.Node) bool {
		call, ok := n.(*syntax.CallExpr)
		if !ok || bad != nil || len(call.Args) == 0 {
			return bad == nil
		}
		name, ok := shellword.Literal(call.Args[0])
		if !ok {
			bad = fmt.Errorf("hook command %q: the program %q is not a plain word, so it cannot be resolved when the configuration is loaded; write its absolute path", command, wordText(command, call.Args[0]))
			return false
		}
		if slices.Contains(shellBuiltins, name) && !strings.Contains(name, "/") {
			return true
		}
		if rest, ok := strings.CutPrefix(name, "~/"); ok {
			if home, err := os.UserHomeDir(); err == nil {
				name = filepath.Join(home, rest)
			}
		}
		var abs string
		if strings.Contains(name, "/") {
			abs = name
			if !filepath.IsAbs(abs) {
				abs = filepath.Join(base, abs)
			}
		} else {
			lp, err := exec.LookPath(name)
			if err != nil {
				bad = fmt.Errorf("hook command %q: %q is not on PATH: %v", command, name, err)
				return false
			}
			if abs, err = filepath.Abs(lp); err != nil {
				bad = err
				return false
			}
		}
		real, err := filepath.EvalSymlinks(abs)
		if err != nil {
			bad = fmt.Errorf("hook command %q: %v", command, err)
			return false
		}
		if w, in := inWritable(real); in {
			bad = fmt.Errorf("hook command %q: %s is inside %s, which shell commands can write, so a command could change what the hook runs; move it outside the roots (e.g. ~/.config/hands/hooks)", command, real, w)
			return false
		}
		quoted, err := syntax.Quote(real, syntax.LangPOSIX)
		if err != nil {
			bad = fmt.Errorf("hook command %q: %v", command, err)
			return false
		}
		edits = append(edits, edit{int(call.Args[0].Pos().Offset()), int(call.Args[0].End().Offset()), quoted})
		for _, a := range call.Args[1:] {
			op, ok := shellword.Literal(a)
			if !ok || op == "" || strings.HasPrefix(op, "-") {
				continue
			}
			p := op
			if !filepath.IsAbs(p) {
				p = filepath.Join(base, p)
			}
			st, err := os.Stat(p)
			if err != nil || st.IsDir() {
				continue
			}
			if real, err := filepath.EvalSymlinks(p); err == nil {
				if w, in := inWritable(real); in {
					bad = fmt.Errorf("hook command %q: its operand %s is inside %s, which shell commands can write, so a command could change what the hook runs; move it outside the roots", command, real, w)
					return false
				}
			}
		}
		return true
	})
	if bad != nil {
		return "", bad
	}
	out := command
	for i := len(edits) - 1; i >= 0; i-- {
		e := edits[i]
		out = out[:e.from] + e.with + out[e.to:]
	}
	return out, nil
}

func wordText(src string, w *syntax.Word) string {
	return src[w.Pos().Offset():w.End().Offset()]
}
