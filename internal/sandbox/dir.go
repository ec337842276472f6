package sandbox

import (
	"fmt"
	"strings"
)

// A Dir is a directory the server alone writes, held open by a handle: the
// files it makes there (oversized results, background jobs' output) are
// made new through the handle, never through a link planted at their name,
// and read back through it. OpenDir checks each directory on the way to it.

// checkName refuses a name that is not one plain entry of a directory.
func checkName(op, name string) error {
	if name == "" || name == "." || name == ".." || strings.ContainsAny(name, "/\\\x00") {
		return invalid(op, fmt.Sprintf("%q", name), "not a plain file name")
	}
	return nil
}
