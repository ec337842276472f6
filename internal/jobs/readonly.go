package jobs

import (
	"slices"
	"strings"
	"sync"

	"github.com/hands-dev/hands/internal/shellword"
	"mvdan.cc/sh/v3/syntax"
)

// IsReadOnly reports whether command, parsed as bash, only reads: every
// simple command in it is one of a known set of read-only programs (ls,
// cat, head, tail, wc, grep, rg, find, git status/log/diff/show, pwd,
// echo, which, file, stat, ...) with no argument that makes it write or run
// something (find -exec or -delete, sort -o, git branch NAME, ...), joined
// only by pipes, &&, ||, ;, subshells and groups. It is false for output
// redirection other than to /dev/null or between descriptors, for command
// and process substitution, for variable assignments (FOO=x cmd can point a
// program at something that writes), for `cd` (it moves the session), for
// background commands, for control flow and functions, and for anything
// that does not parse. A read-only command can run concurrently with other
// read-only commands.
func IsReadOnly(command string) bool {
	f, err := syntax.NewParser(syntax.Variant(syntax.LangBash)).Parse(strings.NewReader(command), "")
	if err != nil {
		return false
	}
	return ReadOnlyFile(f)
}

// ReadOnlyFile is IsReadOnly of a command already parsed as bash
// (syntax.Variant(syntax.LangBash)), for a caller that parses it anyway:
// the permission policy, so a call is parsed once.
func ReadOnlyFile(f *syntax.File) bool {
	return f != nil && len(f.Stmts) > 0 && allReadOnly(f.Stmts)
}

func allReadOnly(stmts []*syntax.Stmt) bool {
	for _, s := range stmts {
		if !readOnlyStmt(s) {
			return false
		}
	}
	return true
}

func readOnlyStmt(s *syntax.Stmt) bool {
	if s == nil || s.Background || s.Coprocess || s.Disown {
		return false
	}
	for _, r := range s.Redirs {
		if !readOnlyRedirect(r) {
			return false
		}
	}
	switch c := s.Cmd.(type) {
	case nil:
		return true
	case *syntax.CallExpr:
		return readOnlyCall(c)
	case *syntax.BinaryCmd:
		return readOnlyStmt(c.X) && readOnlyStmt(c.Y)
	case *syntax.Subshell:
		return allReadOnly(c.Stmts)
	case *syntax.Block:
		return allReadOnly(c.Stmts)
	case *syntax.TimeClause:
		return c.Stmt == nil || readOnlyStmt(c.Stmt)
	case *syntax.TestClause:
		return shellword.Inert(c)
	}
	return false
}

func readOnlyRedirect(r *syntax.Redirect) bool {
	if r.N != nil && !shellword.IsDigits(r.N.Value) {
		return false // {var}>file assigns a variable
	}
	switch r.Op {
	case syntax.RdrIn, syntax.WordHdoc:
		return shellword.Inert(r.Word)
	case syntax.Hdoc, syntax.DashHdoc:
		return shellword.Inert(r.Word) && (r.Hdoc == nil || shellword.Inert(r.Hdoc))
	case syntax.DplIn, syntax.DplOut:
		// 2>&1, >&2, 3<&-; but >&file writes file.
		s, ok := shellword.Literal(r.Word)
		return ok && (shellword.IsDigits(s) || s == "-")
	case syntax.RdrOut, syntax.AppOut, syntax.RdrAll, syntax.AppAll, syntax.RdrClob:
		s, ok := shellword.Literal(r.Word)
		return ok && s == "/dev/null"
	}
	return false
}

// arg is a command argument: its text when it is a literal, known is false
// when it holds an expansion whose value cannot be known here.
type arg struct {
	s     string
	known bool
}

func readOnlyCall(c *syntax.CallExpr) bool {
	if len(c.Assigns) > 0 || len(c.Args) == 0 {
		return false
	}
	args := make([]arg, 0, len(c.Args)-1)
	for _, w := range c.Args {
		if !shellword.Inert(w) {
			return false
		}
		s, ok := shellword.Literal(w)
		args = append(args, arg{s, ok})
	}
	if !args[0].known {
		return false // $CMD: could be anything
	}
	check, ok := readOnlyPrograms()[args[0].s]
	return ok && check(args[1:])
}

// readOnlyPrograms maps a program to the check of its arguments. It is
// built by the first command checked, not at every start of the binary.
var readOnlyPrograms = sync.OnceValue(func() map[string]func([]arg) bool {
	readOnlyPrograms := make(map[string]func([]arg) bool, 96)
	for _, name := range []string{
		"cat", "head", "tail", "wc", "pwd", "echo", "ls", "stat", "which",
		"whereis", "type", "basename", "dirname", "realpath", "readlink", "true",
		"false", ":", "test", "[", "du", "df", "cut", "tr", "nl", "tac", "rev",
		"strings", "od", "hexdump", "cmp", "comm", "diff", "md5sum", "sha1sum",
		"sha256sum", "sha512sum", "b2sum", "cksum", "base64", "base32",
		"column", "fold", "paste", "join", "seq", "whoami", "id", "groups",
		"uname", "nproc", "free", "uptime", "ps", "printenv", "grep", "egrep",
		"fgrep", "jq", "locale", "arch", "lscpu", "getconf", "sleep", "expand",
		"unexpand", "look", "numfmt", "tty", "logname",
	} {
		readOnlyPrograms[name] = anyArgs
	}
	readOnlyPrograms["printf"] = without("-v")
	readOnlyPrograms["file"] = without("-C", "--compile")
	readOnlyPrograms["tree"] = without("-o")
	readOnlyPrograms["find"] = without("-exec", "-execdir", "-ok", "-okdir", "-delete",
		"-fprint", "-fprint0", "-fprintf", "-fls")
	readOnlyPrograms["fd"] = without("-x", "--exec", "-X", "--exec-batch")
	readOnlyPrograms["fdfind"] = readOnlyPrograms["fd"]
	readOnlyPrograms["rg"] = without("--pre")
	readOnlyPrograms["sort"] = sortArgs
	readOnlyPrograms["uniq"] = atMostPositional(1)
	readOnlyPrograms["xxd"] = atMostPositional(1)
	readOnlyPrograms["date"] = dateArgs
	readOnlyPrograms["hostname"] = atMostPositional(0)
	readOnlyPrograms["env"] = noArgs
	readOnlyPrograms["command"] = commandArgs
	readOnlyPrograms["git"] = gitArgs
	readOnlyPrograms["go"] = goArgs
	return readOnlyPrograms
})

func anyArgs([]arg) bool { return true }

func noArgs(args []arg) bool { return len(args) == 0 }

// without accepts arguments none of which is, or starts with name=, one of
// the flags; an argument that cannot be known is refused.
func without(flags ...string) func([]arg) bool {
	return func(args []arg) bool {
		for _, a := range args {
			if !a.known {
				return false
			}
			name, _, _ := strings.Cut(a.s, "=")
			if slices.Contains(flags, name) {
				return false
			}
		}
		return true
	}
}

// positional returns the arguments that are not flags, or false if one
// cannot be known.
func positional(args []arg) ([]string, bool) {
	var out []string
	for _, a := range args {
		if !a.known {
			return nil, false
		}
		if !strings.HasPrefix(a.s, "-") || a.s == "-" {
			out = append(out, a.s)
		}
	}
	return out, true
}

// atMostPositional accepts at most n operands: uniq IN OUT and xxd IN OUT
// write OUT, hostname NAME renames the machine.
func atMostPositional(n int) func([]arg) bool {
	return func(args []arg) bool {
		p, ok := positional(args)
		return ok && len(p) <= n
	}
}

func sortArgs(args []arg) bool {
	for _, a := range args {
		switch {
		case !a.known:
			return false
		case strings.HasPrefix(a.s, "--"):
			if strings.HasPrefix(a.s, "--output") || strings.HasPrefix(a.s, "--compress-program") {
				return false
			}
		case strings.HasPrefix(a.s, "-") && strings.ContainsRune(a.s, 'o'):
			return false
		}
	}
	return true
}

// dateArgs refuses setting the clock: -s, --set, or an MMDDhhmm operand.
func dateArgs(args []arg) bool {
	for _, a := range args {
		switch {
		case !a.known:
			return false
		case strings.HasPrefix(a.s, "+"):
		case strings.HasPrefix(a.s, "--set"), strings.HasPrefix(a.s, "-") && strings.ContainsRune(a.s, 's') && !strings.HasPrefix(a.s, "--"):
			return false
		case !strings.HasPrefix(a.s, "-"):
			return false
		}
	}
	return true
}

// commandArgs accepts `command -v NAME` and `command -V NAME`, which only
// look a name up; `command NAME` runs it.
func commandArgs(args []arg) bool {
	return len(args) > 0 && args[0].known && (args[0].s == "-v" || args[0].s == "-V")
}

func goArgs(args []arg) bool {
	if len(args) == 0 || !args[0].known {
		return false
	}
	switch args[0].s {
	case "version", "list", "doc":
		return true
	case "env":
		return without("-w", "-u")(args[1:])
	}
	return false
}

// gitReadOnly lists the git subcommands that only read, with the check of
// their arguments; built on first use.
var gitReadOnly = sync.OnceValue(func() map[string]func([]arg) bool {
	return map[string]func([]arg) bool{
		"status": anyArgs, "log": anyArgs, "diff": anyArgs, "show": anyArgs,
		"rev-parse": anyArgs, "ls-files": anyArgs, "ls-tree": anyArgs,
		"cat-file": anyArgs, "blame": anyArgs, "shortlog": anyArgs,
		"describe": anyArgs, "grep": anyArgs, "show-ref": anyArgs,
		"merge-base": anyArgs, "name-rev": anyArgs, "rev-list": anyArgs,
		"diff-tree": anyArgs, "diff-files": anyArgs, "diff-index": anyArgs,
		"whatchanged": anyArgs, "count-objects": anyArgs, "version": anyArgs,
		"branch":   listing("-d", "-D", "--delete", "-m", "-M", "--move", "-c", "-C", "--copy", "-u", "--set-upstream-to", "--unset-upstream", "--edit-description", "-f", "--force"),
		"tag":      listing("-d", "--delete", "-a", "--annotate", "-s", "--sign", "-u", "--local-user", "-f", "--force", "-m", "--message", "-F", "--file", "-e", "--edit"),
		"remote":   subcommands("", "-v", "--verbose", "get-url", "show"),
		"stash":    subcommands("list", "show"),
		"worktree": subcommands("list"),
		"reflog":   subcommands("", "show"),
		"config":   gitConfigArgs,
	}
})

func gitArgs(args []arg) bool {
	// Global options before the subcommand.
global:
	for len(args) > 0 {
		if !args[0].known {
			return false
		}
		s := args[0].s
		switch {
		case s == "-C":
			if len(args) < 2 || !args[1].known {
				return false
			}
			args = args[2:]
			continue
		case s == "--no-pager", s == "-P", s == "--no-optional-locks", s == "--bare",
			strings.HasPrefix(s, "--git-dir="), strings.HasPrefix(s, "--work-tree="):
			args = args[1:]
			continue
		case strings.HasPrefix(s, "-"):
			return false // -c key=value can set a pager or an alias to anything
		}
		break global
	}
	if len(args) == 0 {
		return false
	}
	check, ok := gitReadOnly()[args[0].s]
	if !ok {
		return false
	}
	rest := args[1:]
	// Options that write a file or run a program, whatever the subcommand.
	for _, a := range rest {
		if !a.known {
			return false
		}
		if strings.HasPrefix(a.s, "--output") || a.s == "--ext-diff" || strings.HasPrefix(a.s, "--exec") {
			return false
		}
	}
	return check(rest)
}

// listing accepts a git branch or tag that lists: none of the writing
// flags, and operands only as patterns or commits of a listing flag.
func listing(writing ...string) func([]arg) bool {
	listFlags := []string{"-l", "--list", "--contains", "--no-contains", "--merged", "--no-merged", "--points-at", "-a", "--all", "-r", "--remotes"}
	return func(args []arg) bool {
		listed := false
		for _, a := range args {
			name, _, _ := strings.Cut(a.s, "=")
			switch {
			case slices.Contains(writing, name):
				return false
			case slices.Contains(listFlags, name):
				listed = true
			case !strings.HasPrefix(a.s, "-") && !listed:
				return false // git branch NAME creates NAME
			}
		}
		return true
	}
}

// subcommands accepts the given first arguments ("" for none).
func subcommands(allowed ...string) func([]arg) bool {
	return func(args []arg) bool {
		first := ""
		if len(args) > 0 {
			first = args[0].s
		}
		return slices.Contains(allowed, first)
	}
}

func gitConfigArgs(args []arg) bool {
	read := false
	for i, a := range args {
		switch a.s {
		case "--get", "--get-all", "--get-regexp", "--get-urlmatch", "--list", "-l":
			read = true
		case "get", "list":
			read = read || i == 0
		case "--unset", "--unset-all", "--add", "--replace-all", "--edit", "-e",
			"--rename-section", "--remove-section", "set", "unset", "edit",
			"rename-section", "remove-section":
			return false
		}
	}
	return read
}
