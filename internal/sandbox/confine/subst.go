package confine

import (
	"fmt"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// HasCommandSubstitution reports whether command, parsed as bash, contains
// a command substitution — $(...), `...`, ${ ...;} — or a process
// substitution, <(...) or >(...), anywhere it would run: in double quotes,
// in unquoted here-documents, in parameter expansions and arithmetic,
// nested at any depth. Text in single quotes and in quoted here-documents
// is literal and does not count. A command that does not parse is an error.
//
// It judges the text, not what the text may later run: eval '$(x)' or
// bash -c '$(x)' pass.
func HasCommandSubstitution(command string) (bool, error) {
	f, err := syntax.NewParser(syntax.Variant(syntax.LangBash)).Parse(strings.NewReader(command), "")
	if err != nil {
		return false, fmt.Errorf("parsing the command: %w", err)
	}
	found := false
	syntax.Walk(f, func(n syntax.Node) bool {
		switch n.(type) {
		case *syntax.CmdSubst, *syntax.ProcSubst:
			found = true
		}
		return !found
	})
	return found, nil
}
