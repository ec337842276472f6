package permission

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/hands-dev/hands/tool"
)

const (
	root = "/work/proj"
	home = "/home/u"
)

type bashIn struct {
	cmd string
	bg  bool
}

func (b bashIn) ShellCommand() string { return b.cmd }
func (b bashIn) Background() bool     { return b.bg }

type pathIn []string

func (p pathIn) Paths() []string { return p }

var (
	bashInfo  = tool.Info{Name: "Bash", Core: "bash"}
	editInfo  = tool.Info{Name: "Edit", Core: "edit", Destructive: true}
	writeInfo = tool.Info{Name: "Write", Core: "write", Destructive: true}
	nativeEd  = tool.Info{Name: "str_replace", Core: "edit"}
	readInfo  = tool.Info{Name: "Read", Core: "read", ReadOnly: true}
	grepInfo  = tool.Info{Name: "Grep", Core: "grep", ReadOnly: true}
	viewInfo  = tool.Info{Name: "view", Core: "read", ReadOnly: true}
	todoInfo  = tool.Info{Name: "TodoWrite", Core: "todo_write"}
	fetchInfo = tool.Info{Name: "WebFetch", Core: "web_fetch", ReadOnly: true, OpenWorld: true}
	mcpInfo   = tool.Info{Name: "mcp__github__create_issue"}
	mcpOther  = tool.Info{Name: "mcp__gitlab__create_issue"}
)

var aliases = map[string]string{"view": "read", "create_file": "write", "str_replace": "edit", "run_shell_command": "bash"}

type rules struct{ allow, ask, deny []string }

func engine(t testing.TB, rs rules, mode Mode) *Policy {
	t.Helper()
	b := Bases{Project: root, Cwd: root, Home: home}
	parse := func(list []string) []Rule {
		var out []Rule
		for _, s := range list {
			r, err := Parse(s, aliases, b)
			if err != nil {
				t.Fatalf("rule %q: %v", s, err)
			}
			out = append(out, r)
		}
		return out
	}
	e, err := New(Config{Rules: Rules{Allow: parse(rs.allow), Ask: parse(rs.ask), Deny: parse(rs.deny)},
		Mode: mode, AllowBypass: true, Roots: []string{root, "/extra"}, Home: home})
	if err != nil {
		t.Fatal(err)
	}
	return e.Session(func() string { return root }, "/tmp/session/plan.md")
}

var (
	A = tool.Allow
	D = tool.Deny
	Q = tool.Ask
)

// The rule sets the table uses.
var (
	none     = rules{}
	gitDiff  = rules{allow: []string{"Bash(git diff:*)"}}
	npmTest  = rules{allow: []string{"Bash(npm run test:*)", "Bash(git status)", "Bash(ls:*)", "Bash(echo:*)", "Bash(cat:*)", "Bash(grep:*)"}}
	denyRm   = rules{allow: []string{"Bash"}, deny: []string{"Bash(rm:*)"}}
	denyRmA  = rules{allow: []string{"Bash(ls:*)", "Bash(echo:*)", "Bash(git diff:*)", "Bash(true)", "Bash(cat:*)"}, deny: []string{"Bash(rm:*)"}}
	askPush  = rules{allow: []string{"Bash(git:*)"}, ask: []string{"Bash(git push:*)"}}
	denyCurl = rules{allow: []string{"Bash(echo:*)"}, deny: []string{"Bash(curl:*)", "Bash(rm -rf:*)"}}
	wild     = rules{allow: []string{"Bash(git * main)", "Bash(npm run test*)", "Bash(ls *)"}}
	exact    = rules{allow: []string{"Bash(git diff)", "Bash(go test ./...)"}}
)

type bashCase struct {
	rules rules
	mode  Mode
	cmd   string
	want  tool.Decision
}

var bashCases = []bashCase{
	// Exact and prefix rules.
	{gitDiff, Default, "git diff", A},
	{gitDiff, Default, "git diff --stat", A},
	{gitDiff, Default, "git diff HEAD~1 -- a.go", A},
	{gitDiff, Default, "git diffx", Q},
	{gitDiff, Default, "git push", Q},
	{gitDiff, Default, "git  diff", A},
	{gitDiff, Default, "'git' 'diff'", A},
	{gitDiff, Default, "/usr/bin/git diff", A},
	{exact, Default, "git diff", A},
	{exact, Default, "git diff --stat", A}, // a read-only command is a read
	{exact, Default, "go test ./... -v", Q},
	{exact, Default, "go test ./...", A},
	{exact, Default, "go test ./... -run X", Q},
	{exact, Default, "go test", Q},
	{npmTest, Default, "npm run test", A},
	{npmTest, Default, "npm run test -- --watch", A},
	{npmTest, Default, "npm run build", Q},
	{npmTest, Default, "git status", A},
	{npmTest, Default, "git status --short", A}, // read-only
	{npmTest, Default, "npm run test:unit", Q},
	{wild, Default, "git push origin main", A},
	{wild, Default, "git merge main", A},
	{wild, Default, "git push origin dev", Q},
	{wild, Default, "npm run test:unit", A},
	{wild, Default, "npm run build", Q},
	{wild, Default, "ls", A},
	{wild, Default, "ls -la", A},
	{wild, Default, "lsof", Q},
	// A prefix never spans an operator: every command must be allowed.
	{gitDiff, Default, "git diff; rm -rf x", Q},
	{gitDiff, Default, "git diff && rm -rf x", Q},
	{gitDiff, Default, "git diff || rm -rf x", Q},
	{gitDiff, Default, "git diff | sh", Q},
	{gitDiff, Default, "git diff\nrm -rf x", Q},
	{gitDiff, Default, "git diff & rm -rf x", Q},
	{gitDiff, Default, "(git diff; rm -rf x)", Q},
	{gitDiff, Default, "{ git diff; rm x; }", Q},
	{gitDiff, Default, "if git diff; then rm x; fi", Q},
	{gitDiff, Default, "while git diff; do rm x; done", Q},
	{gitDiff, Default, "for f in a; do rm $f; done", Q},
	{gitDiff, Default, "case x in x) rm y;; esac", Q},
	{gitDiff, Default, "! rm x", Q},
	{gitDiff, Default, "git diff | git diff", A},
	{gitDiff, Default, "git diff && git diff --stat", A},
	{npmTest, Default, "npm run test && git status", A},
	{npmTest, Default, "npm run test; npm run build", Q},
	{npmTest, Default, "ls | grep x", A},
	{npmTest, Default, "cat a.txt | grep -n x | head", A}, // read-only
	{npmTest, Default, "cat a.txt | npm run build", Q},
	// Deny wins, in every command, through quoting and paths.
	{denyRm, Default, "rm x", D},
	{denyRm, Default, "rm -rf /", D},
	{denyRm, Default, "ls; rm x", D},
	{denyRm, Default, "ls && rm x", D},
	{denyRm, Default, "ls || rm x", D},
	{denyRm, Default, "ls | rm x", D},
	{denyRm, Default, "ls\nrm x", D},
	{denyRm, Default, "(rm x)", D},
	{denyRm, Default, "{ rm x; }", D},
	{denyRm, Default, "ls & rm x", D},
	{denyRm, Default, "/bin/rm x", D},
	{denyRm, Default, "/usr/bin/rm x", D},
	{denyRm, Default, "./rm x", D},
	{denyRm, Default, "'rm' x", D},
	{denyRm, Default, `"rm" x`, D},
	{denyRm, Default, `r\m x`, D},
	{denyRm, Default, `\rm x`, D},
	{denyRm, Default, "$'rm' x", D},
	{denyRm, Default, `$'\x72m' x`, D},
	{denyRm, Default, "r''m x", D},
	{denyRm, Default, `r""m x`, D},
	{denyRm, Default, "r\\\nm x", D},
	{denyRm, Default, "FOO=1 rm x", D},
	{denyRm, Default, "FOO=1 BAR=2 rm x", D},
	{denyRm, Default, "env rm x", D},
	{denyRm, Default, "env FOO=1 rm x", D},
	{denyRm, Default, "env -i rm x", D},
	{denyRm, Default, "env -u HOME rm x", D},
	{denyRm, Default, "env -- rm x", D},
	{denyRm, Default, "command rm x", D},
	{denyRm, Default, "command -p rm x", D},
	{denyRm, Default, "builtin rm x", D},
	{denyRm, Default, "exec rm x", D},
	{denyRm, Default, "exec -a foo rm x", D},
	{denyRm, Default, "nice rm x", D},
	{denyRm, Default, "nice -n 5 rm x", D},
	{denyRm, Default, "nohup rm x", D},
	{denyRm, Default, "timeout 5 rm x", D},
	{denyRm, Default, "timeout -s KILL 5 rm x", D},
	{denyRm, Default, "timeout --preserve-status 5s rm x", D},
	{denyRm, Default, "nice nohup timeout 5 env rm x", D},
	{denyRm, Default, "stdbuf -oL rm x", D},
	{denyRm, Default, "setsid rm x", D},
	{denyRm, Default, "sudo rm x", D},
	{denyRm, Default, "sudo -u root rm x", D},
	{denyRm, Default, "xargs rm", D},
	{denyRm, Default, "ls | xargs rm", D},
	{denyRm, Default, "ls | xargs -0 rm -f", D},
	{denyRm, Default, "ls | xargs -I{} rm {}", D},
	{denyRm, Default, "ls | xargs -n 1 rm", D},
	{denyRm, Default, "find . -exec rm {} ;", D},
	{denyRm, Default, `find . -name '*.o' -exec rm {} \;`, D},
	{denyRm, Default, "find . -execdir rm {} +", D},
	{denyRm, Default, "find . -ok rm {} ;", D},
	{denyRm, Default, "sh -c 'rm x'", D},
	{denyRm, Default, `bash -c "rm x"`, D},
	{denyRm, Default, "bash -lc 'ls; rm x'", D},
	{denyRm, Default, "sh -c 'sh -c \"rm x\"'", D},
	{denyRm, Default, "dash -c 'rm x'", D},
	{denyRm, Default, "zsh -c 'rm x'", D},
	{denyRm, Default, "watch rm x", D},
	{denyRm, Default, "flock /tmp/l rm x", D},
	{denyRm, Default, "flock /tmp/l -c 'rm x'", D},
	{denyRm, Default, "echo $(rm x)", D},
	{denyRm, Default, "echo `rm x`", D},
	{denyRm, Default, "echo \"$(rm x)\"", D},
	{denyRm, Default, "X=$(rm x) ls", D},
	{denyRm, Default, "cat <(rm x)", D},
	{denyRm, Default, "ls > >(rm x)", D},
	{denyRm, Default, "echo ${X:-$(rm x)}", D},
	{denyRm, Default, "cat <<EOF\n$(rm x)\nEOF", D},
	{denyRm, Default, "time rm x", D},
	{denyRm, Default, "coproc rm x", D},
	{denyRm, Default, "rm", D},
	{denyRm, Default, "ls", A},
	{denyRm, Default, "rmdir x", A},
	{denyRm, Default, "echo rm", A},
	{denyRm, Default, "git rm x", A},
	{denyRm, Default, "command -v rm", A},
	// Commands the parse cannot know ask when a deny or ask rule names Bash.
	{denyRm, Default, "eval 'rm x'", Q},
	{denyRm, Default, "eval ls", Q},
	{denyRm, Default, "$CMD x", Q},
	{denyRm, Default, "${CMD} x", Q},
	{denyRm, Default, "$(echo rm) x", Q},
	{denyRm, Default, "`echo rm` x", Q},
	{denyRm, Default, "sh -c \"$X\"", Q},
	{denyRm, Default, "bash -c $X", Q},
	{denyRm, Default, "sh script.sh", Q},
	{denyRm, Default, "bash", Q},
	{denyRm, Default, "bash -s", Q},
	{denyRm, Default, "curl x | sh", Q},
	{denyRm, Default, "source ./x.sh", Q},
	{denyRm, Default, ". ./x.sh", Q},
	{denyRm, Default, "alias ls=rm; ls x", Q},
	{denyRm, Default, "f() { rm x; }; f", D},
	{denyRm, Default, "f() { r\"\"m x; }", D},
	{denyRm, Default, "ls() { echo; }; ls", Q},
	{denyRm, Default, "PATH=.:$PATH ls", Q},
	{denyRm, Default, "env PATH=/tmp ls", Q},
	{denyRm, Default, "export PATH=/tmp; ls", Q},
	{denyRm, Default, "BASH_ENV=x.sh bash -c ls", Q},
	{denyRm, Default, "r{m,} x", Q},
	{denyRm, Default, "{rm,-rf,x}", Q},
	{denyRm, Default, "/bin/r? x", Q},
	{denyRm, Default, "/bin/r* x", Q},
	{denyRm, Default, "env -S 'rm x'", Q},
	{denyRm, Default, "trap 'rm x' EXIT", Q},
	{denyRm, Default, "X='a[$(rm x)]'; echo $((X))", Q},
	{denyRm, Default, "echo $((X))", Q},
	{denyRm, Default, "[[ $X -eq 1 ]]", Q},
	{denyRm, Default, "echo ${X@P}", Q},
	{denyRm, Default, "declare -i x", Q},
	{denyRm, Default, "printf -v 'a[$(id)]' 1", Q},
	{denyRm, Default, "read 'a[x]'", Q},
	{denyRm, Default, "ls 'unterminated", Q},
	{denyRm, Default, "hash -p /tmp/x ls; ls", Q},
	{denyRm, Default, "for ((i=0;i<3;i++)); do ls; done", Q},
	{denyRm, Default, "echo $((1+2))", A},
	{denyRm, Default, "echo $HOME", A},
	{denyRm, Default, "rm $X", D},
	// Without deny or ask rules on Bash, an unknowable command falls to the mode.
	{npmTest, Default, "eval ls", Q},
	{npmTest, Default, "$CMD", Q},
	{npmTest, DontAsk, "$CMD", D},
	{rules{allow: []string{"Bash"}}, Default, "eval 'rm x'", A},
	// Deny prefixes with arguments, and unknown words.
	{denyCurl, Default, "curl http://x", D},
	{denyCurl, Default, "rm -rf x", D},
	{denyCurl, Default, "rm -r x", Q},
	{denyCurl, Default, "rm $FLAGS x", D},
	{denyCurl, Default, "rm -rf", D},
	{denyCurl, Default, "echo curl", A},
	{denyCurl, Default, "echo $(curl x)", D},
	{denyCurl, Default, "echo $(date)", Q},
	{denyCurl, Default, "echo `date`", Q},
	// Substitutions and redirections outside the roots ask even when allowed.
	{denyRmA, Default, "echo $(ls)", Q},
	{denyRmA, Default, "echo hi > out.txt", A},
	{denyRmA, Default, "echo hi > /work/proj/out.txt", A},
	{denyRmA, Default, "echo hi > /extra/out.txt", A},
	{denyRmA, Default, "echo hi > /etc/passwd", Q},
	{denyRmA, Default, "echo hi >> ~/.bashrc", Q},
	{denyRmA, Default, "echo hi > ../out.txt", Q},
	{denyRmA, Default, "echo hi > $F", Q},
	{denyRmA, Default, "echo hi > /dev/null", A},
	{denyRmA, Default, "echo hi 2>&1", A},
	{denyRmA, Default, "echo hi &> /dev/null", A},
	{denyRmA, Default, "ls 2>/dev/null | cat", A},
	{denyRmA, Default, "cat < /etc/hosts", A},
	{denyRmA, Default, "true", A},
	{denyRmA, Default, "touch x", Q},
	{denyRmA, Default, "ls | xargs echo", A},
	{denyRmA, Default, "ls | xargs cat", A},
	{denyRmA, Default, "timeout 5 ls", A},
	{denyRmA, Default, "sh -c 'ls && echo hi'", A},
	{denyRmA, Default, "sh -c 'ls && mv a b'", Q},
	{denyRmA, Default, "find . -exec cat {} ;", Q}, // find itself is not allowed
	// Ask rules.
	{askPush, Default, "git push", Q},
	{askPush, Default, "git push origin main", Q},
	{askPush, Default, "git status && git push", Q},
	{askPush, Default, "git status", A},
	{askPush, Default, "git pull", A},
	{askPush, Default, "GIT_DIR=x git push", Q},
	{askPush, Default, "env git push", Q},
	{askPush, Default, "sh -c 'git push'", Q},
	{askPush, Default, "eval git push", Q},
	{askPush, DontAsk, "git push", D},
	{askPush, BypassPermissions, "git push", Q},
	// Modes.
	{none, Default, "ls -la", A},
	{none, Default, "git status", A},
	{none, Default, "npm install", Q},
	{none, AcceptEdits, "npm install", Q},
	{none, DontAsk, "npm install", D},
	{none, BypassPermissions, "npm install", A},
	{none, BypassPermissions, "eval x", A},
	{denyRm, BypassPermissions, "rm x", D},
	{none, Plan, "ls -la", A},
	{none, Plan, "git log", A},
	{none, Plan, "rm x", D},
	{none, Plan, "echo x > f", D},
	{npmTest, Plan, "npm run test", D},
	{none, Plan, "ls; touch x", D},
	{askPush, Plan, "git push", D}, // plan mode refuses before asking
	{askPush, Plan, "git status", A},
	{rules{ask: []string{"Bash(ls:*)"}}, Plan, "ls", Q},
	{none, Plan, "ls &", D},
}

func TestBashRules(t *testing.T) {
	for i, c := range bashCases {
		p := engine(t, c.rules, c.mode)
		got, reason := p.Check(context.Background(), bashInfo, tool.Call{Name: "Bash"}, bashIn{cmd: c.cmd})
		if got != c.want {
			t.Errorf("case %d: %+v in %s mode: %q → %v (%s), want %v", i, c.rules, c.mode, c.cmd, dec(got), reason, dec(c.want))
		}
	}
}

func dec(d tool.Decision) string { return [...]string{"allow", "deny", "ask"}[d] }

type toolCase struct {
	rules rules
	mode  Mode
	info  tool.Info
	in    any
	input string
	want  tool.Decision
}

var toolCases = []toolCase{
	{none, Default, readInfo, pathIn{root + "/a.go"}, "", A},
	{none, Default, editInfo, pathIn{root + "/a.go"}, "", Q},
	{none, AcceptEdits, editInfo, pathIn{root + "/a.go"}, "", A},
	{none, AcceptEdits, writeInfo, pathIn{"/extra/a.go"}, "", A},
	{none, AcceptEdits, writeInfo, pathIn{"/elsewhere/a.go"}, "", Q},
	{none, AcceptEdits, todoInfo, nil, "", Q},
	{none, Plan, editInfo, pathIn{root + "/a.go"}, "", D},
	{none, Plan, writeInfo, pathIn{"/tmp/session/plan.md"}, "", A},
	{none, Plan, readInfo, pathIn{root + "/a.go"}, "", A},
	{none, DontAsk, editInfo, pathIn{root + "/a.go"}, "", D},
	{none, BypassPermissions, editInfo, pathIn{root + "/a.go"}, "", A},
	{rules{deny: []string{"Read(./secrets/**)"}}, Default, readInfo, pathIn{root + "/secrets/k.pem"}, "", D},
	{rules{deny: []string{"Read(./secrets/**)"}}, Default, grepInfo, pathIn{root + "/secrets/k.pem"}, "", D},
	{rules{deny: []string{"Read(./secrets/**)"}}, Default, grepInfo, pathIn{root + "/secrets"}, "", A},
	{rules{deny: []string{"Read(./secrets/**)"}}, Default, viewInfo, pathIn{root + "/secrets/a/b"}, "", D},
	{rules{deny: []string{"Read(./secrets/**)"}}, Default, readInfo, pathIn{root + "/src/secrets/k"}, "", A},
	{rules{deny: []string{"Read(*.env)"}}, Default, readInfo, pathIn{root + "/a/b/.env"}, "", D},
	{rules{deny: []string{"Read(*.env)"}}, Default, readInfo, pathIn{root + "/a/b/env"}, "", A},
	{rules{deny: []string{"Read(*.env)"}}, Default, readInfo, pathIn{root + "/a/b/prod.env"}, "", D},
	{rules{deny: []string{"Read(.env)"}}, Default, readInfo, pathIn{root + "/a/.env"}, "", D},
	{rules{deny: []string{"Read(//etc/**)"}}, Default, readInfo, pathIn{"/etc/hosts"}, "", D},
	{rules{deny: []string{"Read(~/.ssh/**)"}}, Default, readInfo, pathIn{home + "/.ssh/id_rsa"}, "", D},
	{rules{deny: []string{"Read(~/.ssh/**)"}}, Default, readInfo, pathIn{root + "/.ssh/id_rsa"}, "", A},
	{rules{allow: []string{"Edit(/src/**/*.go)"}}, Default, editInfo, pathIn{root + "/src/a/b.go"}, "", A},
	{rules{allow: []string{"Edit(/src/**/*.go)"}}, Default, editInfo, pathIn{root + "/src/b.go"}, "", A},
	{rules{allow: []string{"Edit(/src/**/*.go)"}}, Default, editInfo, pathIn{root + "/lib/b.go"}, "", Q},
	{rules{allow: []string{"Edit(/src/**/*.go)"}}, Default, writeInfo, pathIn{root + "/src/b.go"}, "", A},
	{rules{allow: []string{"Edit(/src/**/*.go)"}}, Default, nativeEd, pathIn{root + "/src/b.go"}, "", A},
	{rules{deny: []string{"Edit"}}, AcceptEdits, nativeEd, pathIn{root + "/src/b.go"}, "", D},
	{rules{deny: []string{"Write(~/notes/*)"}}, BypassPermissions, editInfo, pathIn{home + "/notes/a.md"}, "", D},
	{rules{deny: []string{"Write(~/notes/*)"}}, BypassPermissions, editInfo, pathIn{home + "/notes/x/a.md"}, "", D},
	{rules{deny: []string{"str_replace"}}, AcceptEdits, editInfo, pathIn{root + "/a"}, "", D},
	{rules{deny: []string{"view"}}, Default, readInfo, pathIn{root + "/a"}, "", D},
	{rules{ask: []string{"Read"}}, Default, readInfo, pathIn{root + "/a"}, "", Q},
	{rules{ask: []string{"Read"}, deny: []string{"Read(./a)"}}, Default, readInfo, pathIn{root + "/a"}, "", D},
	{rules{allow: []string{"Read"}, ask: []string{"Read(./a)"}}, Default, readInfo, pathIn{root + "/a"}, "", Q},
	{rules{allow: []string{"Edit"}}, Plan, editInfo, pathIn{root + "/a"}, "", D},
	{rules{allow: []string{"TodoWrite"}}, Default, todoInfo, nil, "", A},
	{rules{ask: []string{"Edit"}}, Plan, editInfo, pathIn{root + "/a"}, "", D},
	{rules{ask: []string{"Edit"}}, Plan, writeInfo, pathIn{"/tmp/session/plan.md"}, "", Q},
	{rules{ask: []string{"Read"}}, Plan, readInfo, pathIn{root + "/a"}, "", Q},
	{rules{allow: []string{"WebFetch(domain:example.com)"}}, Default, fetchInfo, nil, `{"url":"https://example.com/x"}`, A},
	{rules{deny: []string{"WebFetch(domain:example.com)"}}, Default, fetchInfo, nil, `{"url":"https://EXAMPLE.com./x"}`, D},
	{rules{deny: []string{"WebFetch(domain:example.com)"}}, Default, fetchInfo, nil, `{"url":"https://evil.example.com/x"}`, A},
	{rules{deny: []string{"WebFetch(domain:*.example.com)"}}, Default, fetchInfo, nil, `{"url":"https://evil.example.com/x"}`, D},
	// The decoded input's Domain (web_fetch's) decides, whatever the
	// profile calls the URL parameter.
	{rules{deny: []string{"WebFetch(domain:example.com)"}}, Default, fetchInfo, domainIn("example.com"), `{"address":"https://example.com/x"}`, D},
	{rules{allow: []string{"WebFetch(domain:*.example.com)"}}, Default, fetchInfo, domainIn("docs.example.com"), `{"url":"https://other.org/"}`, A},
	{rules{deny: []string{"WebFetch(domain:example.com)"}}, Default, fetchInfo, domainIn("other.org"), `{"url":"https://example.com/x"}`, A},
	{rules{deny: []string{"mcp__github"}}, Default, mcpInfo, nil, "", D},
	{rules{deny: []string{"mcp__github"}}, Default, mcpOther, nil, "", Q},
	{rules{allow: []string{"mcp__github__create_issue"}}, Default, mcpInfo, nil, "", A},
	{rules{allow: []string{"mcp__github__*"}}, Default, mcpInfo, nil, "", A},
	{rules{allow: []string{"mcp__github__list"}}, Default, mcpInfo, nil, "", Q},
	{rules{deny: []string{"Bash"}}, Default, tool.Info{Name: "run_shell_command", Core: "bash"}, bashIn{cmd: "ls"}, "", D},
	{rules{deny: []string{"run_shell_command(rm:*)"}}, Default, bashInfo, bashIn{cmd: "rm x"}, "", D},
	{rules{deny: []string{"Task(Explore)", "Skill(pdf)"}}, Default, bashInfo, bashIn{cmd: "touch x"}, "", Q},
	{rules{allow: []string{"Task(Explore)"}}, Default, tool.Info{Name: "Task", Core: "task"}, nil, "", Q},
	{rules{deny: []string{"Task"}}, Default, tool.Info{Name: "Task", Core: "task"}, nil, "", D},
}

// domainIn is a decoded input that names the host it fetches.
type domainIn string

func (d domainIn) Domain() string { return string(d) }

func TestToolRules(t *testing.T) {
	for i, c := range toolCases {
		p := engine(t, c.rules, c.mode)
		got, reason := p.Check(context.Background(), c.info, tool.Call{Name: c.info.Name, Input: json.RawMessage(c.input)}, c.in)
		if got != c.want {
			t.Errorf("case %d: %+v in %s mode: %s %v → %v (%s), want %v", i, c.rules, c.mode, c.info.Name, c.in, dec(got), reason, dec(c.want))
		}
	}
}

func TestCaseCount(t *testing.T) {
	if n := len(bashCases) + len(toolCases); n < 150 {
		t.Errorf("%d rule cases; the issue asks for at least 150", n)
	}
}

func TestMalformedRules(t *testing.T) {
	for _, c := range []struct{ rule, want string }{
		{"", "without surrounding spaces"},
		{" Bash", "without surrounding spaces"},
		{"Bash(", "not closed"},
		{"Bash()", "empty specifier"},
		{"Bahs(rm:*)", "unknown tool"},
		{"Bash(rm:*", "not closed"},
		{"Bash(a && b)", "one simple command"},
		{"Bash(a; b)", "one simple command"},
		{"Bash(a | b)", "one simple command"},
		{"Bash(X=1 a)", "one simple command"},
		{"Bash(rm $X)", "literal text"},
		{"Bash(a:*b:*)", "prefix marker"},
		{"Bash('unterminated)", "does not parse"},
		{"Bash(:*)", "one simple command"},
		{"Bash(* x)", "starts with a command name"},
		{"WebFetch(example.com)", "domain:HOST"},
		{"WebFetch(domain:)", "domain:HOST"},
		{"TodoWrite(x)", "takes no specifier"},
		{"mcp__", "names no MCP server"},
		{"mcp__x(y)", "takes no specifier"},
		{"Bash Read", "not a tool name"},
	} {
		_, err := Parse(c.rule, aliases, Bases{Project: root, Cwd: root, Home: home})
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("Parse(%q) = %v, want an error saying %q", c.rule, err, c.want)
		}
	}
}

func TestModeChanges(t *testing.T) {
	p := engine(t, none, AcceptEdits)
	if err := p.EnterPlan(); err != nil || p.Mode() != Plan {
		t.Fatalf("EnterPlan: %v, mode %s", err, p.Mode())
	}
	if d, _ := p.Check(context.Background(), editInfo, tool.Call{}, pathIn{root + "/a"}); d != D {
		t.Errorf("an edit in plan mode: %s", dec(d))
	}
	if m, err := p.ExitPlan(); err != nil || m != string(AcceptEdits) {
		t.Fatalf("ExitPlan = %s, %v; want the mode before plan", m, err)
	}
	if _, err := p.ExitPlan(); err == nil {
		t.Error("ExitPlan outside plan mode succeeded")
	}
	e, _ := New(Config{})
	if err := e.Session(nil, "").SetMode(BypassPermissions); err == nil {
		t.Error("bypassPermissions without AllowBypass was accepted")
	}
	if _, err := New(Config{Mode: BypassPermissions}); err == nil {
		t.Error("a bypassPermissions start without AllowBypass was accepted")
	}
}

func ExampleParse() {
	r, err := Parse("Bash(npm run test:*)", nil, Bases{})
	fmt.Println(r.Tool, r.Kind == Command, err)
	// Output: Bash true <nil>
}
