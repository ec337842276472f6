package permission

import (
	"fmt"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"

	"github.com/hands-dev/hands/internal/shellword"
	"mvdan.cc/sh/v3/syntax"
)

// word is one word of a simple command: its value when the parse knows it.
// An unknown word (an expansion, a glob, a brace) may become any number of
// words when the shell runs.
type word struct {
	s     string
	known bool
}

// simple is one simple command the shell will run.
type simple struct {
	argv []word
	// wrapper marks a command that runs another (env, timeout, sh -c …):
	// deny and ask rules see it, and allow rules look through it to the
	// command it runs.
	wrapper bool
}

// analysis is what the parse of a command line tells the rules.
type analysis struct {
	cmds []simple
	// unknowable lists why the commands that will run cannot all be
	// known from the parse.
	unknowable []string
	// risky lists what makes the command ask even when its commands are
	// allowed: substitutions, writes outside the roots.
	risky []string
	// file is the parse of the whole command, nil when it does not parse.
	file *syntax.File
}

// maxDepth bounds sh -c inside sh -c.
const maxDepth = 8

// env is where a command runs, for redirections.
type env struct {
	dir   string
	home  string
	roots []string
}

func analyze(src string, e env) *analysis {
	a := &analysis{}
	a.parse(src, e, 0)
	return a
}

func (a *analysis) parse(src string, e env, depth int) {
	if depth > maxDepth {
		a.unknown("shells nest deeper than %d levels", maxDepth)
		return
	}
	f, err := syntax.NewParser(syntax.Variant(syntax.LangBash)).Parse(strings.NewReader(src), "")
	if err != nil {
		a.unknown("the command does not parse: %v", err)
		return
	}
	if depth == 0 {
		a.file = f
	}
	w := &walker{a: a, e: e, depth: depth}
	w.stmts(f.Stmts)
}

func (a *analysis) unknown(format string, args ...any) {
	a.unknowable = append(a.unknowable, fmt.Sprintf(format, args...))
}

func (a *analysis) risk(format string, args ...any) {
	a.risky = append(a.risky, fmt.Sprintf(format, args...))
}

type walker struct {
	a     *analysis
	e     env
	depth int
}

func (w *walker) stmts(ss []*syntax.Stmt) {
	for _, s := range ss {
		w.stmt(s)
	}
}

func (w *walker) stmt(s *syntax.Stmt) {
	if s == nil {
		return
	}
	for _, r := range s.Redirs {
		w.redirect(r)
	}
	switch c := s.Cmd.(type) {
	case nil:
	case *syntax.CallExpr:
		w.call(c)
	case *syntax.BinaryCmd:
		w.stmt(c.X)
		w.stmt(c.Y)
	case *syntax.Subshell:
		w.stmts(c.Stmts)
	case *syntax.Block:
		w.stmts(c.Stmts)
	case *syntax.IfClause:
		for ic := c; ic != nil; ic = ic.Else {
			w.stmts(ic.Cond)
			w.stmts(ic.Then)
		}
	case *syntax.WhileClause:
		w.stmts(c.Cond)
		w.stmts(c.Do)
	case *syntax.ForClause:
		switch l := c.Loop.(type) {
		case *syntax.WordIter:
			for _, x := range l.Items {
				w.expansions(x)
			}
		case *syntax.CStyleLoop:
			w.arithm(l)
		}
		w.stmts(c.Do)
	case *syntax.CaseClause:
		w.expansions(c.Word)
		for _, it := range c.Items {
			for _, p := range it.Patterns {
				w.expansions(p)
			}
			w.stmts(it.Stmts)
		}
	case *syntax.TimeClause:
		w.stmt(c.Stmt)
	case *syntax.CoprocClause:
		w.stmt(c.Stmt)
	case *syntax.ArithmCmd:
		w.arithm(c)
	case *syntax.LetClause:
		w.arithm(c)
	case *syntax.TestClause:
		w.expansions(c)
		w.test(c.X)
	case *syntax.DeclClause:
		w.decl(c)
	case *syntax.FuncDecl:
		w.a.unknown("it defines a function, which can stand in for any command name")
		w.stmt(c.Body)
	default:
		w.a.unknown("it uses shell syntax (%T) whose commands are not looked into", c)
	}
}

// redirect checks where output goes: a file outside the roots (or one
// named by an expansion) asks.
func (w *walker) redirect(r *syntax.Redirect) {
	w.expansions(r.Word)
	if r.Hdoc != nil {
		w.expansions(r.Hdoc)
	}
	switch r.Op {
	case syntax.RdrOut, syntax.AppOut, syntax.RdrAll, syntax.AppAll, syntax.RdrClob, syntax.RdrInOut, syntax.DplOut:
	default:
		return
	}
	s, ok := shellword.Literal(r.Word)
	if !ok || shellword.Unquoted(r.Word, "*?[{") {
		w.a.risk("it redirects output to a file named by an expansion")
		return
	}
	if r.Op == syntax.DplOut && (shellword.IsDigits(s) || s == "-") {
		return
	}
	if strings.HasPrefix(r.Word.Lit(), "~") {
		s = filepath.Join(w.e.home, strings.TrimPrefix(s, "~"))
	}
	if !w.writable(s) {
		w.a.risk("it writes to %s, outside the roots", s)
	}
}

// harmless are the files output may always go to.
var harmless = []string{"/dev/null", "/dev/stdout", "/dev/stderr", "/dev/tty", "/dev/zero"}

func (w *walker) writable(p string) bool {
	if slices.Contains(harmless, p) || strings.HasPrefix(p, "/dev/fd/") {
		return true
	}
	if !filepath.IsAbs(p) {
		p = filepath.Join(w.e.dir, p)
	}
	p = filepath.Clean(p)
	for _, r := range w.e.roots {
		if p == r || strings.HasPrefix(p, strings.TrimSuffix(r, "/")+"/") {
			return true
		}
	}
	return false
}

// expansions looks inside n for commands the shell runs while expanding
// it: command and process substitutions are analysed as commands and make
// the whole ask; prompt expansion and arithmetic on variables cannot be
// known.
func (w *walker) expansions(n syntax.Node) {
	if n == nil {
		return
	}
	syntax.Walk(n, func(n syntax.Node) bool {
		switch n := n.(type) {
		case *syntax.CmdSubst:
			w.a.risk("it runs a command substitution")
			w.stmts(n.Stmts)
			return false
		case *syntax.ProcSubst:
			w.a.risk("it runs a process substitution")
			w.stmts(n.Stmts)
			return false
		case *syntax.ParamExp:
			if n.Exp != nil && n.Exp.Op == syntax.OtherParamOps {
				w.a.unknown("${…@…} can expand a value as a prompt, running commands it holds")
			}
			if n.Index != nil {
				w.arithm(n.Index)
			}
			if n.Slice != nil {
				w.arithm(n.Slice.Offset)
				w.arithm(n.Slice.Length)
			}
		case *syntax.ArithmExp:
			w.arithm(n.X)
			return false
		}
		return true
	})
}

// arithm: bash evaluates the value of a variable used in arithmetic as an
// expression, and an array subscript in it runs command substitutions, so
// arithmetic on variables cannot be known.
func (w *walker) arithm(n syntax.Node) {
	if n == nil {
		return
	}
	vars := false
	syntax.Walk(n, func(n syntax.Node) bool {
		switch n := n.(type) {
		case *syntax.CmdSubst, *syntax.ProcSubst:
			w.expansions(n)
			return false
		case *syntax.ParamExp:
			if n.Index == nil || !isArrayAll(n.Index) {
				vars = true
			}
		case *syntax.Lit:
			if !isNumber(n.Value) {
				vars = true
			}
		}
		return true
	})
	if vars {
		w.a.unknown("arithmetic on a variable evaluates its value, which can hold a command")
	}
}

func isArrayAll(x syntax.ArithmExpr) bool {
	wd, ok := x.(*syntax.Word)
	if !ok {
		return false
	}
	l := wd.Lit()
	return l == "@" || l == "*"
}

func isNumber(s string) bool {
	if s == "" {
		return false
	}
	s = strings.ToLower(s)
	if strings.HasPrefix(s, "0x") {
		return strings.Trim(s[2:], "0123456789abcdef") == "" && len(s) > 2
	}
	return strings.Trim(s, "0123456789") == ""
}

var arithTests = []syntax.BinTestOperator{syntax.TsEql, syntax.TsNeq, syntax.TsLss, syntax.TsLeq, syntax.TsGtr, syntax.TsGeq}

// test looks for [[ a -eq b ]], which evaluates both sides as arithmetic.
func (w *walker) test(x syntax.TestExpr) {
	switch t := x.(type) {
	case *syntax.BinaryTest:
		if slices.Contains(arithTests, t.Op) {
			for _, side := range []syntax.TestExpr{t.X, t.Y} {
				if wd, ok := side.(*syntax.Word); ok {
					if s, ok := shellword.Literal(wd); ok && isNumber(strings.TrimPrefix(s, "-")) {
						continue
					}
				}
				w.a.unknown("[[ … -eq … ]] evaluates its operands as arithmetic, which can hold a command")
			}
		}
		w.test(t.X)
		w.test(t.Y)
	case *syntax.UnaryTest:
		w.test(t.X)
	case *syntax.ParenTest:
		w.test(t.X)
	}
}

// special are variables that change which program a name runs, or make
// the shell run code it reads from them.
var special = []string{"PATH", "BASH_ENV", "ENV", "PS4", "PS1", "PROMPT_COMMAND", "IFS",
	"LD_PRELOAD", "LD_LIBRARY_PATH", "LD_AUDIT", "SHELLOPTS", "BASHOPTS", "GLOBIGNORE",
	"BASH_LOADABLES_PATH", "EXECIGNORE", "PROMPT_DIRTRIM", "DYLD_INSERT_LIBRARIES"}

func (w *walker) assign(name string) {
	if slices.Contains(special, name) || strings.HasPrefix(name, "BASH_FUNC_") {
		w.a.unknown("it sets %s, which changes what a command name runs", name)
	}
}

func (w *walker) assigns(as []*syntax.Assign) {
	for _, a := range as {
		if a.Name != nil {
			w.assign(a.Name.Value)
		}
		if a.Index != nil {
			w.arithm(a.Index)
		}
		if a.Value != nil {
			w.expansions(a.Value)
		}
		if a.Array != nil {
			w.expansions(a.Array)
		}
	}
}

func (w *walker) decl(c *syntax.DeclClause) {
	w.assigns(c.Args)
	argv := []word{{s: c.Variant.Value, known: true}}
	for _, a := range c.Args {
		switch {
		case a.Naked && a.Name != nil:
			argv = append(argv, word{s: a.Name.Value, known: true})
		case a.Naked && a.Value != nil:
			s, ok := shellword.Literal(a.Value)
			if ok && strings.HasPrefix(s, "-") && strings.ContainsAny(s, "in") {
				w.a.unknown("%s %s makes later assignments evaluate their values", c.Variant.Value, s)
			}
			if ok && strings.Contains(s, "[") {
				w.a.unknown("%s of an array element evaluates its subscript, which can hold a command", c.Variant.Value)
			}
			argv = append(argv, word{s: s, known: ok})
		case a.Name != nil:
			argv = append(argv, word{s: a.Name.Value + "=…", known: false})
		default:
			argv = append(argv, word{})
		}
	}
	w.a.cmds = append(w.a.cmds, simple{argv: argv})
}

func (w *walker) call(c *syntax.CallExpr) {
	w.assigns(c.Assigns)
	if len(c.Args) == 0 {
		return
	}
	argv := make([]word, 0, len(c.Args))
	for _, x := range c.Args {
		w.expansions(x)
		s, ok := shellword.Literal(x)
		if ok && (shellword.Unquoted(x, "*?[") || shellword.Unquoted(x, "{") && strings.ContainsAny(s, ",.")) {
			// A glob or brace expands to words the parse cannot know
			// (a file named -rf, or {rm,-rf,x} becoming three words).
			ok = false
		}
		if ok && strings.HasPrefix(x.Lit(), "~") {
			ok = false
		}
		argv = append(argv, word{s: s, known: ok})
	}
	w.command(argv)
}

// command records one simple command and looks through it when it runs
// another.
func (w *walker) command(argv []word) {
	if len(argv) == 0 {
		return
	}
	if !argv[0].known {
		w.a.unknown("the command name comes from an expansion")
		w.a.cmds = append(w.a.cmds, simple{argv: argv})
		return
	}
	argv[0].s = commandName(argv[0].s)
	name := argv[0].s
	if unknowable(name) {
		w.a.unknown("%s runs code the parse cannot see", name)
	}
	if varNames(name) {
		for _, a := range argv[1:] {
			if a.known && strings.Contains(a.s, "[") {
				w.a.unknown("%s of an array element evaluates its subscript, which can hold a command", name)
				break
			}
		}
	}
	if (name == "mapfile" || name == "readarray") && hasFlag(argv[1:], "C") {
		w.a.unknown("%s -C runs a callback", name)
	}
	look, ok := wrappers()[name]
	if !ok {
		w.a.cmds = append(w.a.cmds, simple{argv: argv})
		return
	}
	wrapper := name != "find"
	w.a.cmds = append(w.a.cmds, simple{argv: argv, wrapper: wrapper})
	look(w, argv[1:])
}

// unknowable reports the commands whose effect the parse cannot know: they
// run code from a string or a file, or change what names mean.
func unknowable(name string) bool {
	switch name {
	case "eval", "source", ".", "alias", "trap", "hash", "enable", "fc", "bind", "shopt":
		return true
	}
	return false
}

// varNames reports the builtins that take variable names, whose array
// subscripts bash evaluates.
func varNames(name string) bool {
	switch name {
	case "read", "printf", "unset", "export", "declare", "typeset", "local", "readonly",
		"getopts", "wait", "mapfile", "readarray", "let", "test", "[":
		return true
	}
	return false
}

func hasFlag(args []word, letter string) bool {
	for _, a := range args {
		if a.known && strings.HasPrefix(a.s, "-") && !strings.HasPrefix(a.s, "--") && strings.Contains(a.s, letter) {
			return true
		}
	}
	return false
}

// A wrapper looks at its arguments and records the command it runs.
type wrapperFunc func(w *walker, args []word)

var (
	wrappersOnce sync.Once
	wrapperLooks map[string]wrapperFunc
)

// wrappers maps each wrapper to its look. It is built by the first command
// looked at, not at every start of the binary (a function, not a
// sync.OnceValue, since the looks refer back to it).
func wrappers() map[string]wrapperFunc {
	wrappersOnce.Do(buildWrappers)
	return wrapperLooks
}

func buildWrappers() {
	wrappers := map[string]wrapperFunc{
		"env":     lookEnv,
		"command": lookCommand,
		"builtin": func(w *walker, args []word) { w.command(args) },
		"exec":    options("a"),
		"nice":    options("n"),
		"nohup":   options(""),
		"setsid":  options(""),
		"time":    options("fo"),
		"stdbuf":  options("ioe"),
		"ionice":  options("cnp"),
		"timeout": positional(options("sk"), 1),
		"taskset": positional(options(""), 1),
		"chrt":    positional(options(""), 1),
		"flock":   lookFlock,
		"sudo":    lookSudo,
		"doas":    options("uC"),
		"xargs":   lookXargs,
		"find":    lookFind,
		"watch":   lookWatch,
	}
	for _, sh := range []string{"sh", "bash", "dash", "zsh", "ksh", "mksh", "ash", "busybox"} {
		wrappers[sh] = lookShell
	}
	wrapperLooks = wrappers
}

// skip returns the arguments after the options of a wrapper: valued names
// the single letters whose option takes a value (-n 5 or -n5), and "--"
// ends the options. A long option takes its value after "=".
func skip(args []word, valued string) ([]word, bool) {
	for len(args) > 0 {
		a := args[0]
		if !a.known {
			return args, false
		}
		if a.s == "--" {
			return args[1:], true
		}
		if !strings.HasPrefix(a.s, "-") || a.s == "-" {
			return args, true
		}
		args = args[1:]
		if strings.HasPrefix(a.s, "--") {
			continue
		}
		// -abc: a letter that takes a value takes the rest, or the next word.
		for i := 1; i < len(a.s); i++ {
			if valued != "" && strings.IndexByte(valued, a.s[i]) >= 0 {
				if i == len(a.s)-1 && len(args) > 0 {
					args = args[1:]
				}
				break
			}
		}
	}
	return args, true
}

func options(valued string) wrapperFunc {
	return func(w *walker, args []word) {
		rest, ok := skip(args, valued)
		if !ok {
			w.a.unknown("a wrapper's option comes from an expansion")
		}
		w.command(rest)
	}
}

// positional skips n operands (timeout's duration) before the command.
func positional(_ wrapperFunc, n int) wrapperFunc {
	return func(w *walker, args []word) {
		rest, ok := skip(args, "sk")
		if !ok || len(rest) < n {
			if !ok {
				w.a.unknown("a wrapper's option comes from an expansion")
			}
			return
		}
		w.command(rest[n:])
	}
}

func lookEnv(w *walker, args []word) {
	for len(args) > 0 {
		a := args[0]
		switch {
		case !a.known:
			w.a.unknown("env's argument comes from an expansion")
			w.command(args)
			return
		case a.s == "-S" || a.s == "--split-string" || strings.HasPrefix(a.s, "--split-string=") || strings.HasPrefix(a.s, "-S") && len(a.s) > 2:
			w.a.unknown("env -S splits a string into a command")
			return
		case a.s == "-u" || a.s == "-C" || a.s == "--unset" || a.s == "--chdir":
			args = args[min(2, len(args)):]
		case a.s == "--":
			args = args[1:]
		case strings.HasPrefix(a.s, "-"):
			args = args[1:]
		case strings.Contains(a.s, "="):
			name, _, _ := strings.Cut(a.s, "=")
			w.assign(name)
			args = args[1:]
		default:
			w.command(args)
			return
		}
	}
}

// lookCommand: command -v/-V only looks a name up.
func lookCommand(w *walker, args []word) {
	rest, ok := skip(args, "")
	if !ok {
		w.a.unknown("command's option comes from an expansion")
	}
	for _, a := range args[:len(args)-len(rest)] {
		if strings.ContainsAny(a.s, "vV") && !strings.HasPrefix(a.s, "--") {
			return
		}
	}
	w.command(rest)
}

func lookFlock(w *walker, args []word) {
	rest, ok := skip(args, "wEe")
	if !ok || len(rest) < 2 {
		return
	}
	rest = rest[1:] // the lock file
	if rest[0].known && (rest[0].s == "-c" || rest[0].s == "--command") {
		w.shellString(rest[1:])
		return
	}
	w.command(rest)
}

func lookSudo(w *walker, args []word) {
	rest, ok := skip(args, "ugCDprtUhT")
	if !ok {
		w.a.unknown("sudo's option comes from an expansion")
	}
	shell := hasFlag(args[:len(args)-len(rest)], "s") || hasFlag(args[:len(args)-len(rest)], "i")
	if len(rest) == 0 {
		if shell {
			w.a.unknown("sudo starts a shell reading its input")
		}
		return
	}
	if shell {
		w.a.unknown("sudo -s/-i runs its arguments through a shell")
	}
	w.command(rest)
}

// lookXargs: the command xargs runs gets words from its input.
func lookXargs(w *walker, args []word) {
	rest, ok := skip(args, "IiLlnPsdEeaR")
	if !ok {
		w.a.unknown("xargs's option comes from an expansion")
	}
	if len(rest) == 0 {
		rest = []word{{s: "echo", known: true}}
	}
	w.command(append(slices.Clone(rest), word{}))
}

// lookFind: -exec, -execdir, -ok and -okdir run a command for each file.
func lookFind(w *walker, args []word) {
	for i := 0; i < len(args); i++ {
		a := args[i]
		if !a.known || !slices.Contains([]string{"-exec", "-execdir", "-ok", "-okdir"}, a.s) {
			continue
		}
		j := i + 1
		for j < len(args) && !(args[j].known && (args[j].s == ";" || args[j].s == "+")) {
			j++
		}
		sub := slices.Clone(args[i+1 : j])
		for k := range sub {
			if sub[k].known && strings.Contains(sub[k].s, "{}") {
				sub[k] = word{} // a file name, unknown
			}
		}
		w.command(sub)
		i = j
	}
}

// lookWatch runs its arguments through sh -c, joined, unless -x.
func lookWatch(w *walker, args []word) {
	rest, ok := skip(args, "nqd")
	if !ok {
		w.a.unknown("watch's option comes from an expansion")
		return
	}
	if hasFlag(args[:len(args)-len(rest)], "x") {
		w.command(rest)
		return
	}
	var parts []string
	for _, a := range rest {
		if !a.known {
			w.a.unknown("watch runs a string built from an expansion")
			return
		}
		parts = append(parts, a.s)
	}
	if len(parts) > 0 {
		w.a.parse(strings.Join(parts, " "), w.e, w.depth+1)
	}
}

// lookShell: sh -c 'literal' is analysed as a command line; a shell
// reading a script, its input or a string from an expansion cannot be.
func lookShell(w *walker, args []word) {
	c := false
	for len(args) > 0 {
		a := args[0]
		if !a.known {
			w.a.unknown("the shell's argument comes from an expansion")
			return
		}
		if a.s == "--version" || a.s == "--help" {
			return
		}
		if !strings.HasPrefix(a.s, "-") && !strings.HasPrefix(a.s, "+") || a.s == "-" || a.s == "--" {
			break
		}
		args = args[1:]
		switch {
		case a.s == "-o" || a.s == "+o" || a.s == "-O" || a.s == "+O" || a.s == "--rcfile" || a.s == "--init-file":
			args = args[min(1, len(args)):]
		case !strings.HasPrefix(a.s, "--") && strings.Contains(a.s, "c"):
			c = true
		case strings.Contains(a.s, "s") && !strings.HasPrefix(a.s, "--"):
			w.a.unknown("the shell reads commands from its input")
			return
		}
	}
	if len(args) > 0 && args[0].known && args[0].s == "--" {
		args = args[1:]
	}
	if !c {
		if len(args) == 0 {
			w.a.unknown("the shell reads commands from its input")
		} else {
			w.a.unknown("the shell runs a script file")
		}
		return
	}
	w.shellString(args)
}

func (w *walker) shellString(args []word) {
	if len(args) == 0 {
		w.a.unknown("sh -c without a command string")
		return
	}
	if !args[0].known {
		w.a.unknown("sh -c runs a string built from an expansion")
		return
	}
	w.a.parse(args[0].s, w.e, w.depth+1)
}

// match reports whether a command's words match the rule's. For an allow
// rule (strict), an unknown word matches only a "*"; for deny and ask
// rules it may be anything, so it matches.
func (r *Rule) matchCommand(argv []word, strict bool) bool {
	return matchWords(r.words, r.prefix, argv, strict)
}

func matchWords(pat []pword, prefix bool, argv []word, strict bool) bool {
	// m[i][j] caches whether pat[i:] matches argv[j:]: unknown words and
	// "*" words branch, and a command may hold thousands of words.
	memo := map[[2]int]bool{}
	var match func(i, j int) bool
	match = func(i, j int) bool {
		key := [2]int{i, j}
		if v, ok := memo[key]; ok {
			return v
		}
		memo[key] = false
		v := matchAt(pat, prefix, argv, strict, i, j, match)
		memo[key] = v
		return v
	}
	return match(0, 0)
}

func matchAt(pat []pword, prefix bool, argv []word, strict bool, i, j int, match func(i, j int) bool) bool {
	if i == len(pat) {
		if prefix || j == len(argv) {
			return true
		}
		// Unknown trailing words may be none at all.
		if strict {
			return false
		}
		for _, a := range argv[j:] {
			if a.known {
				return false
			}
		}
		return true
	}
	if pat[i].s == "*" {
		for k := j; k <= len(argv); k++ {
			if match(i+1, k) {
				return true
			}
		}
		return false
	}
	if j == len(argv) {
		return false
	}
	a := argv[j]
	if !a.known {
		if strict {
			return false
		}
		// It may stand for any number of words.
		for k := i; k <= len(pat); k++ {
			if match(k, j+1) {
				return true
			}
		}
		return false
	}
	return pat[i].match(a.s) && match(i+1, j+1)
}

// pword is one word of a Bash rule: literal text, or with "*" a regular
// expression (whose matching time is linear in the text).
type pword struct {
	s  string
	re *regexp.Regexp
}

func newPword(s string) pword {
	if s == "*" || !strings.Contains(s, "*") {
		return pword{s: s}
	}
	parts := strings.Split(s, "*")
	for i := range parts {
		parts[i] = regexp.QuoteMeta(parts[i])
	}
	return pword{s: s, re: regexp.MustCompile(`^(?s:` + strings.Join(parts, ".*") + `)$`)}
}

func (p pword) match(s string) bool {
	if p.re != nil {
		return p.re.MatchString(s)
	}
	return p.s == s
}
