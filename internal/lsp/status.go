package lsp

import (
	"errors"
	"os/exec"
	"slices"
	"strings"
)

// Status is what starting one server of the table would do here, for
// `hands doctor`.
type Status struct {
	Server Server
	// Extensions are the file extensions it serves, sorted.
	Extensions []string
	// Path is the program found on PATH (Command or an alternative),
	// empty when none is installed; Missing then lists what was looked for.
	Path    string
	Missing []string
}

// Statuses reports, for each server of table, whether its program is on
// PATH, as the lsp tool would look for it.
func Statuses(table []Server) []Status {
	var out []Status
	for _, s := range table {
		st := Status{Server: s, Extensions: Extensions([]Server{s})}
		argv, err := s.argv(strings.Join(st.Extensions, " "))
		var missing *NotInstalledError
		switch {
		case err == nil:
			st.Path, _ = exec.LookPath(argv[0])
		case errors.As(err, &missing):
			st.Missing = missing.Commands
		}
		out = append(out, st)
	}
	return out
}

// String says it in one line: "gopls (.go): /usr/bin/gopls", or what is
// missing and how to install it.
func (st Status) String() string {
	var b strings.Builder
	b.WriteString(st.Server.Name)
	if len(st.Extensions) > 0 {
		b.WriteString(" (" + strings.Join(st.Extensions, " ") + ")")
	}
	if st.Path != "" {
		return b.String() + ": " + st.Path
	}
	if m := slices.Compact(slices.Clone(st.Missing)); len(m) == 1 {
		b.WriteString(": not installed (" + m[0] + " not found on PATH)")
	} else {
		b.WriteString(": not installed (neither " + strings.Join(m, " nor ") + " found on PATH)")
	}
	if st.Server.Install != "" {
		b.WriteString("; install it with `" + st.Server.Install + "`")
	}
	return b.String()
}
