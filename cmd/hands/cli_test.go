package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"runtime/debug"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestVersionFromBuildInfo checks that version, --version and -v print
// what the go tool reads from the same binary's build information.
func TestVersionFromBuildInfo(t *testing.T) {
	out, err := exec.Command("go", "version", "-m", binary).Output()
	if err != nil {
		t.Fatal(err)
	}
	var goVersion, mod, revision string
	for i, line := range strings.Split(string(out), "\n") {
		f := strings.Fields(line)
		switch {
		case i == 0 && len(f) == 2:
			goVersion = f[1]
		case len(f) >= 3 && f[0] == "mod":
			mod = f[2]
		case len(f) == 2 && f[0] == "build" && strings.HasPrefix(f[1], "vcs.revision="):
			revision = strings.TrimPrefix(f[1], "vcs.revision=")
		}
	}
	if goVersion == "" || mod == "" {
		t.Fatalf("go version -m: %s", out)
	}
	for _, arg := range []string{"version", "--version", "-v"} {
		got, err := exec.Command(binary, arg).Output()
		if err != nil {
			t.Fatalf("%s: %v", arg, err)
		}
		lines := strings.Split(strings.TrimSpace(string(got)), "\n")
		if len(lines) != 3 || lines[0] != "hands "+mod || lines[2] != goVersion {
			t.Errorf("hands %s printed %q; want hands %s, the revision, %s", arg, got, mod, goVersion)
		}
		if revision != "" && !strings.Contains(lines[1], revision) {
			t.Errorf("hands %s: revision line %q, want %s", arg, lines[1], revision)
		}
	}
}

func TestVersionFrom(t *testing.T) {
	bi := &debug.BuildInfo{GoVersion: "go1.26.1", Main: debug.Module{Path: "github.com/hands-dev/hands", Version: "v0.2.0"},
		Settings: []debug.BuildSetting{{Key: "vcs.revision", Value: "abc123"}, {Key: "vcs.time", Value: "2026-11-24T10:00:00Z"}, {Key: "vcs.modified", Value: "true"}}}
	if got, want := versionFrom(bi).String(), "hands v0.2.0\nrevision abc123+dirty (2026-11-24T10:00:00Z)\ngo1.26.1"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
	if got, want := versionFrom(nil).String(), "hands (devel)\nrevision unknown\nunknown"; got != want {
		t.Errorf("no build info: got %q, want %q", got, want)
	}
}

// TestHelpShowsDoubleDashFlags checks every command's help writes flags as
// the README does, and that tools lists --format.
func TestHelpShowsDoubleDashFlags(t *testing.T) {
	for _, c := range commands {
		if commandFlags(c.name) == nil {
			continue
		}
		_, errOut, code := runCLI(t, "", c.name, "--help")
		if code != exitOK {
			t.Fatalf("%s --help: exit %d", c.name, code)
		}
		if !strings.Contains(errOut, "\n  --root DIR\n") || strings.Contains(errOut, "\n  -root") {
			t.Errorf("%s --help does not show --root DIR:\n%s", c.name, errOut)
		}
	}
	_, errOut, _ := runCLI(t, "", "tools", "--help")
	if !strings.Contains(errOut, "\n  --format API\n") || !strings.Contains(errOut, "anthropic, openai, gemini, mcp") {
		t.Errorf("tools --help lacks --format:\n%s", errOut)
	}
	out, _, _ := runCLI(t, "", "help")
	if !strings.Contains(out, "--format anthropic|openai|gemini|mcp") || !strings.Contains(out, "hands completion bash|zsh|fish") {
		t.Errorf("help:\n%s", out)
	}
	_, errOut, _ = runCLI(t, "", "run", "--help")
	if !strings.Contains(errOut, `"arguments" may stand for "input"`) {
		t.Errorf("run --help does not document the line format:\n%s", errOut)
	}
}

// TestErrorsArePrefixedOnce checks a library error is shown with one
// "hands: " prefix.
func TestErrorsArePrefixedOnce(t *testing.T) {
	missing := filepath.Join(t.TempDir(), "missing")
	for _, args := range [][]string{
		{"call", "--root", missing, "view", "{}"},
		{"tools", "--profile", "nope"},
		{"serve", "--root", missing},
	} {
		_, errOut, code := runCLI(t, "", args...)
		if code != exitUsage || !strings.HasPrefix(errOut, "hands: ") || strings.Count(errOut, "hands:") != 1 {
			t.Errorf("%q: exit %d, stderr %q; want one \"hands: \" prefix", args, code, errOut)
		}
	}
}

// TestCompletionScripts loads each shell's script into the real shell and
// asks it to complete.
func TestCompletionScripts(t *testing.T) {
	dir := t.TempDir()
	script := func(shell string) string {
		out, errOut, code := runCLI(t, "", "completion", shell)
		if code != exitOK || out == "" {
			t.Fatalf("completion %s: exit %d %q", shell, code, errOut)
		}
		p := filepath.Join(dir, "hands."+shell)
		if err := os.WriteFile(p, []byte(out), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	t.Run("bash", func(t *testing.T) {
		p := script("bash")
		for line, want := range map[string]string{
			"hands se":              "serve",
			"hands tools --fo":      "--format",
			"hands tools --format":  "anthropic openai gemini mcp",
			"hands call --no-r":     "--no-read-check",
			"hands serve --prof":    "--profile",
			"hands completion ":     "bash zsh fish",
			"hands run --profile c": "claude",
		} {
			words := strings.Fields(line)
			cword := len(words) - 1
			if strings.HasSuffix(line, " ") {
				cword++
			}
			prog := `source "$1"; COMP_WORDS=(` + strings.Join(words, " ") + `); COMP_CWORD=` + itoa(cword) + `; _hands; echo "${COMPREPLY[*]}"`
			if strings.HasSuffix(line, "--format") {
				prog = `source "$1"; COMP_WORDS=(` + line + ` ""); COMP_CWORD=` + itoa(cword+1) + `; _hands; echo "${COMPREPLY[*]}"`
			}
			got, err := exec.Command("bash", "-c", prog, "bash", p).CombinedOutput()
			if err != nil || strings.TrimSpace(string(got)) != want {
				t.Errorf("bash completes %q to %q (%v), want %q", line, got, err, want)
			}
		}
	})
	t.Run("zsh", func(t *testing.T) {
		if _, err := exec.LookPath("zsh"); err != nil {
			t.Skip("zsh is not installed (.ci/run installs it)")
		}
		p := script("zsh")
		got, err := exec.Command("zsh", "-n", p).CombinedOutput()
		if err != nil {
			t.Fatalf("zsh -n: %v %s", err, got)
		}
		got, err = exec.Command("zsh", "-f", "-c", `autoload -Uz compinit && compinit -u -D && source "$1" && print -r -- $_comps[hands]`, "zsh", p).CombinedOutput()
		if err != nil || strings.TrimSpace(string(got)) != "_hands" {
			t.Errorf("zsh did not register the completion: %v %q", err, got)
		}
	})
	t.Run("fish", func(t *testing.T) {
		if _, err := exec.LookPath("fish"); err != nil {
			t.Skip("fish is not installed (.ci/run installs it)")
		}
		p := script("fish")
		for line, want := range map[string]string{
			"hands se":                "serve",
			"hands tools --format ":   "anthropic gemini mcp openai",
			"hands call --no-r":       "--no-read-check",
			"hands completion ":       "bash fish zsh",
			"hands serve --profile c": "claude",
		} {
			got, err := exec.Command("fish", "--no-config", "-c", `source $argv[1]; complete -C"$argv[2]" | cut -f1 | sort | tr "\n" " "`, p, line).CombinedOutput()
			if err != nil || strings.TrimSpace(string(got)) != want {
				t.Errorf("fish completes %q to %q (%v), want %q", line, got, err, want)
			}
		}
	})
	_, errOut, code := runCLI(t, "", "completion", "powershell")
	if code != exitUsage || !strings.Contains(errOut, "bash, zsh or fish") {
		t.Errorf("unknown shell: exit %d %q", code, errOut)
	}
}

func itoa(n int) string { return strconv.Itoa(n) }

// TestRunArgumentsKey checks the keys hands run reads: input or arguments
// (also as OpenAI's JSON text), and nothing else.
func TestRunArgumentsKey(t *testing.T) {
	root := workspace(t)
	in := `{"id":"1","name":"view","arguments":{"path":"a.txt","offset":2}}
{"id":"2","name":"view","input":{"path":"a.txt","offset":2}}
{"id":"3","name":"view","arguments":"{\"path\":\"a.txt\",\"offset\":2}"}
{"id":"4","name":"view","args":{"path":"a.txt"}}
{"id":"5","name":"view","input":{"path":"a.txt"},"arguments":{"path":"a.txt"}}
[{"id":"6","name":"view","arguments":{"path":"a.txt","offset":2}},{"id":"7","name":"view","params":{}}]
{"id":"8","input":{"path":"a.txt"}}
`
	out, _, code := runCLI(t, in, "run", "--root", root)
	if code != exitOK {
		t.Fatalf("exit %d", code)
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if len(lines) != 7 {
		t.Fatalf("got %d lines:\n%s", len(lines), out)
	}
	for i := range 3 {
		var r resultLine
		if err := json.Unmarshal([]byte(lines[i]), &r); err != nil || r.IsError || r.Content[0].Text != "     2\tbeta" {
			t.Errorf("line %d: %s", i+1, lines[i])
		}
	}
	for i, want := range []string{`unknown field \"args\"`, `both \"input\" and \"arguments\"`, `call 2 of the line is not a JSON call`, `has no \"name\"`} {
		var e map[string]string
		if err := json.Unmarshal([]byte(lines[3+i]), &e); err != nil || !strings.Contains(lines[3+i], want) {
			t.Errorf("line %d: %s, want an error with %s", 4+i, lines[3+i], want)
		}
	}
}

// TestCallNoReadCheck: a person's hands call edits a file it has not read
// only with --no-read-check; without it the file is left as it was.
func TestCallNoReadCheck(t *testing.T) {
	root := workspace(t)
	file := filepath.Join(root, "a.txt")
	edit := `{"path":"a.txt","old_str":"beta","new_str":"gamma"}`
	out, errOut, code := runCLI(t, "", "call", "--root", root, "str_replace", edit)
	if code != exitTool || !strings.Contains(out, "FILE_NOT_VIEWED") || !strings.Contains(errOut, "--no-read-check") {
		t.Errorf("without --no-read-check: exit %d out %q err %q", code, out, errOut)
	}
	if b, _ := os.ReadFile(file); string(b) != "alpha\nbeta\n" {
		t.Fatalf("the refused edit changed the file: %q", b)
	}
	out, errOut, code = runCLI(t, "", "call", "--root", root, "--no-read-check", "str_replace", edit)
	if code != exitOK {
		t.Fatalf("with --no-read-check: exit %d out %q err %q", code, out, errOut)
	}
	if b, _ := os.ReadFile(file); string(b) != "alpha\ngamma\n" {
		t.Errorf("file after the edit: %q", b)
	}
	// The claude profile's Write too.
	out, _, code = runCLI(t, "", "call", "--root", root, "--profile", "claude", "--no-read-check", "Write", `{"file_path":"`+file+`","content":"new\n"}`)
	if b, _ := os.ReadFile(file); code != exitOK || string(b) != "new\n" {
		t.Errorf("claude Write with --no-read-check: exit %d %q, file %q", code, out, b)
	}
}

// TestServeLogsStartAndShutdown: serve writes one info line when it
// starts, and SIGTERM or SIGINT end it with an info line and exit 0.
func TestServeLogsStartAndShutdown(t *testing.T) {
	for _, sig := range []syscall.Signal{syscall.SIGTERM, syscall.SIGINT} {
		for _, transport := range []string{"stdio", "http"} {
			t.Run(sig.String()+"/"+transport, func(t *testing.T) {
				root := workspace(t)
				args := []string{"serve", "--root", root, "--profile", "claude"}
				if transport == "http" {
					args = append(args, "--http", "127.0.0.1:0")
				}
				cmd := exec.Command(binary, args...)
				stdin, _ := cmd.StdinPipe()
				defer stdin.Close()
				stderr, _ := cmd.StderrPipe()
				if err := cmd.Start(); err != nil {
					t.Fatal(err)
				}
				sc := bufio.NewScanner(stderr)
				if !sc.Scan() {
					t.Fatal("no start line")
				}
				start := sc.Text()
				for _, want := range []string{"level=INFO", `msg="serving MCP"`, "transport=" + transport, "profile=claude", "roots=" + root} {
					if !strings.Contains(start, want) {
						t.Errorf("start line %q lacks %s", start, want)
					}
				}
				if err := cmd.Process.Signal(sig); err != nil {
					t.Fatal(err)
				}
				var rest bytes.Buffer
				for sc.Scan() {
					rest.WriteString(sc.Text() + "\n")
				}
				done := make(chan error, 1)
				go func() { done <- cmd.Wait() }()
				select {
				case err := <-done:
					if err != nil {
						t.Errorf("exit: %v (stderr %s)", err, rest.String())
					}
				case <-time.After(20 * time.Second):
					cmd.Process.Kill()
					t.Fatal("the server did not stop")
				}
				name := map[syscall.Signal]string{syscall.SIGTERM: "SIGTERM", syscall.SIGINT: "SIGINT"}[sig]
				if got := rest.String(); got != "" && (strings.Count(got, "\n") != 1 || !strings.Contains(got, `level=INFO msg="shutting down" reason="received `+name+`"`)) {
					t.Errorf("after the signal stderr has %q, want one info line naming %s", got, name)
				} else if got == "" {
					t.Errorf("no shutdown line")
				}
			})
		}
	}
}
