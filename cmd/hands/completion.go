package main

import (
	"flag"
	"fmt"
	"io"
	"sort"
	"strings"

	"github.com/hands-dev/hands/toolfmt"
)

// commands lists hands's commands in the order help shows them, with what
// completion says of each.
var commands = []struct{ name, about string }{
	{"serve", "serve MCP over stdio or Streamable HTTP"},
	{"call", "run one call and print its result"},
	{"run", "run calls given as JSON lines on stdin"},
	{"tools", "print the tool definitions"},
	{"doctor", "report what is enforced"},
	{"completion", "print a shell completion script"},
	{"version", "print the version"},
	{"help", "print help"},
}

// commandFlags returns the flag set of a command, for completion; nil for
// a command without flags.
func commandFlags(name string) *flag.FlagSet {
	var c common
	switch name {
	case "serve":
		return new(serveArgs).flags(io.Discard)
	case "call":
		return new(callArgs).flags(io.Discard)
	case "run":
		return runFlags(&c, io.Discard)
	case "tools":
		return new(toolsArgs).flags(io.Discard)
	case "doctor":
		return doctorFlags(&c, io.Discard)
	}
	return nil
}

// flagValues are the closed sets of values a flag takes; "dir" and "file"
// complete paths.
func flagValues(name string) []string {
	switch name {
	case "root":
		return []string{"dir"}
	case "config", "settings", "shell", "loops":
		return []string{"file"}
	case "profile":
		return []string{"native", "claude", "gemini", "envelope", "taskdaemon"}
	case "format":
		return toolfmt.Formats()
	case "permission-mode":
		return []string{"default", "acceptEdits", "plan", "dontAsk", "bypassPermissions"}
	case "log-level":
		return []string{"debug", "info", "warn", "error"}
	}
	return nil
}

var shells = []string{"bash", "zsh", "fish"}

func cmdCompletion(args []string, stdout, stderr io.Writer) int {
	fs := newFlags("completion", "completion bash|zsh|fish", stderr)
	if ok, code := parse(fs, args, stderr); !ok {
		return code
	}
	if fs.NArg() != 1 {
		return usageErr(stderr, "completion takes one shell: bash, zsh or fish, e.g. hands completion bash > /etc/bash_completion.d/hands")
	}
	var script string
	switch fs.Arg(0) {
	case "bash":
		script = bashCompletion()
	case "zsh":
		script = zshCompletion()
	case "fish":
		script = fishCompletion()
	default:
		return usageErr(stderr, "completion: unknown shell %q; give bash, zsh or fish", fs.Arg(0))
	}
	fmt.Fprint(stdout, script)
	return exitOK
}

// flagNames returns a command's flags as --name, sorted.
func flagNames(fs *flag.FlagSet) []string {
	var out []string
	fs.VisitAll(func(f *flag.Flag) { out = append(out, "--"+f.Name) })
	sort.Strings(out)
	return out
}

// valued returns every flag of every command that takes a value from a
// closed set or a path, sorted.
func valued() []string {
	seen := map[string]bool{}
	for _, c := range commands {
		if fs := commandFlags(c.name); fs != nil {
			fs.VisitAll(func(f *flag.Flag) {
				if flagValues(f.Name) != nil {
					seen[f.Name] = true
				}
			})
		}
	}
	var out []string
	for n := range seen {
		out = append(out, n)
	}
	sort.Strings(out)
	return out
}

func commandNames() string {
	var names []string
	for _, c := range commands {
		names = append(names, c.name)
	}
	return strings.Join(names, " ")
}

// caseSyntax is how a shell writes the two case statements that bash and
// zsh completion share: one on the previous word (a flag's values), one on
// the command (its flags). Each field is a format taking the arm's name and
// then, where it has one, the words to offer.
type caseSyntax struct {
	dir, file, list, words string
}

// writeCases writes the body of both case statements, between the opening
// and closing lines the shell's script gives.
func writeCases(b *strings.Builder, syn caseSyntax, between string) {
	for _, name := range valued() {
		switch v := flagValues(name); v[0] {
		case "dir":
			fmt.Fprintf(b, syn.dir, name)
		case "file":
			fmt.Fprintf(b, syn.file, name)
		default:
			fmt.Fprintf(b, syn.list, name, strings.Join(v, " "))
		}
	}
	b.WriteString(between)
	for _, c := range commands {
		words := shells
		if c.name != "completion" {
			fs := commandFlags(c.name)
			if fs == nil {
				continue
			}
			words = append(flagNames(fs), "--help")
		}
		fmt.Fprintf(b, syn.words, c.name, strings.Join(words, " "))
	}
}

func bashCompletion() string {
	var b strings.Builder
	b.WriteString("# bash completion for hands; load with: source <(hands completion bash)\n")
	b.WriteString("_hands() {\n\tlocal cur=\"${COMP_WORDS[COMP_CWORD]}\" prev=\"${COMP_WORDS[COMP_CWORD-1]}\" words=\n")
	fmt.Fprintf(&b, "\tif [ \"$COMP_CWORD\" -eq 1 ]; then\n\t\tCOMPREPLY=($(compgen -W %q -- \"$cur\"))\n\t\treturn\n\tfi\n", commandNames())
	b.WriteString("\tcase \"$prev\" in\n")
	writeCases(&b, caseSyntax{
		dir:   "\t--%s) COMPREPLY=($(compgen -d -- \"$cur\")); return ;;\n",
		file:  "\t--%s) COMPREPLY=($(compgen -f -- \"$cur\")); return ;;\n",
		list:  "\t--%s) COMPREPLY=($(compgen -W %q -- \"$cur\")); return ;;\n",
		words: "\t%s) words=%q ;;\n",
	}, "\tesac\n\tcase \"${COMP_WORDS[1]}\" in\n")
	b.WriteString("\tesac\n\tCOMPREPLY=($(compgen -W \"$words\" -- \"$cur\"))\n}\ncomplete -F _hands hands\n")
	return b.String()
}

func zshCompletion() string {
	var b strings.Builder
	b.WriteString("#compdef hands\n# zsh completion for hands; load with: source <(hands completion zsh),\n# or save as _hands in a directory of $fpath.\n")
	b.WriteString("_hands() {\n\tlocal -a cmds\n\tcmds=(\n")
	for _, c := range commands {
		fmt.Fprintf(&b, "\t\t%s\n", zshQuote(c.name+":"+c.about))
	}
	b.WriteString("\t)\n\tif (( CURRENT == 2 )); then\n\t\t_describe command cmds\n\t\treturn\n\tfi\n")
	b.WriteString("\tcase ${words[CURRENT-1]} in\n")
	writeCases(&b, caseSyntax{
		dir:   "\t--%s) _files -/; return ;;\n",
		file:  "\t--%s) _files; return ;;\n",
		list:  "\t--%s) compadd -- %s; return ;;\n",
		words: "\t%s) compadd -- %s ;;\n",
	}, "\tesac\n\tcase ${words[2]} in\n")
	b.WriteString("\tesac\n}\nif [ \"$funcstack[1]\" = \"_hands\" ]; then\n\t_hands \"$@\"\nelse\n\tcompdef _hands hands\nfi\n")
	return b.String()
}

func fishCompletion() string {
	var b strings.Builder
	b.WriteString("# fish completion for hands; load with: hands completion fish | source\n")
	b.WriteString("complete -c hands -f\n")
	for _, c := range commands {
		fmt.Fprintf(&b, "complete -c hands -n __fish_use_subcommand -a %s -d %s\n", c.name, fishQuote(c.about))
	}
	fmt.Fprintf(&b, "complete -c hands -n '__fish_seen_subcommand_from completion' -a '%s'\n", strings.Join(shells, " "))
	for _, c := range commands {
		fs := commandFlags(c.name)
		if fs == nil {
			continue
		}
		fs.VisitAll(func(f *flag.Flag) {
			_, text := flag.UnquoteUsage(f)
			about, _, _ := strings.Cut(text, ";")
			about, _, _ = strings.Cut(about, " (")
			line := fmt.Sprintf("complete -c hands -n '__fish_seen_subcommand_from %s' -l %s -d %s", c.name, f.Name, fishQuote(about))
			switch v := flagValues(f.Name); {
			case v == nil:
				if _, isBool := f.Value.(interface{ IsBoolFlag() bool }); !isBool {
					line += " -r"
				}
			case v[0] == "dir":
				line += " -r -a '(__fish_complete_directories)'"
			case v[0] == "file":
				line += " -r -F"
			default:
				line += " -x -a '" + strings.Join(v, " ") + "'"
			}
			b.WriteString(line + "\n")
		})
	}
	return b.String()
}

func zshQuote(s string) string { return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'" }

func fishQuote(s string) string {
	return "'" + strings.NewReplacer(`\`, `\\`, "'", `\'`).Replace(s) + "'"
}
